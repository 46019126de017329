export const PAPER_SIZES = ['A4', 'Letter'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

/** The page's stylesheet: constant but for the paper size (one of PAPER_SIZES) and a checked colour. */
export const reportStylesheet = (
  paper: PaperSize,
  accent: string,
) => `@page { size: ${paper}; margin: 16mm 14mm; }
:root { --accent: ${accent}; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1d2433; margin: 0 auto; max-width: 960px; padding: 24px; line-height: 1.45; }
header { border-bottom: 4px solid var(--accent); padding-bottom: 12px; margin-bottom: 16px; display: flex; gap: 16px; align-items: center; }
header img { max-height: 56px; max-width: 200px; }
h1 { font-size: 1.6rem; margin: 0; } h2 { font-size: 1.2rem; margin-top: 28px; color: var(--accent); } h3 { font-size: 1.05rem; margin-bottom: 4px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 10px; }
.card { border: 1px solid #d0d5dd; border-radius: 8px; padding: 10px; break-inside: avoid; }
.label { font-size: .8rem; color: #555; } .value { font-size: 1.35rem; font-weight: 700; } .note, .url { font-size: .8rem; color: #555; }
table { border-collapse: collapse; width: 100%; font-size: .85rem; margin: 8px 0; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { border-bottom: 1px solid #e4e7ec; padding: 4px 6px; text-align: left; vertical-align: top; }
thead th { background: #f2f4f7; }
.url { overflow-wrap: anywhere; font-weight: 400; }
tr.monitor th { padding-left: 18px; font-weight: 400; } .kind { font-weight: 600; }
.website { break-inside: avoid-page; }
figcaption { font-size: .8rem; color: #555; }
h2, h3, caption { break-after: avoid; }
.nums td { white-space: nowrap; }
h4 { font-size: .95rem; margin: 14px 0 4px; } .summary { margin: 2px 0; font-size: .9rem; }
.wrap { overflow-wrap: anywhere; } .findings th[scope="row"] { font-weight: 400; } .findings td:not(.wrap) { white-space: nowrap; } .trend { font-size: .8rem; }
@media print { body { padding: 0; max-width: none; } }
footer { margin-top: 32px; border-top: 1px solid #d0d5dd; padding-top: 8px; font-size: .8rem; color: #555; }
@media (prefers-color-scheme: dark) { @media screen { body { background: #101828; color: #f2f4f7; } thead th { background: #1d2939; } .label, .note, .url, footer { color: #c0c6d0; } .card { border-color: #475467; } } }
`;
