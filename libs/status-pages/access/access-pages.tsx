/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { type PageLanguage, type Translator, translator, Words } from '../i18n/index.js';
import { renderHtmlDocument } from '../page-html.js';

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
body{margin:0;background:#f7f8fa;color:#1d2939}
main{max-width:28rem;margin:4rem auto;padding:1.5rem;background:#fff;border-radius:.5rem}
h1{font-size:1.25rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin:1rem 0 .25rem}
input{box-sizing:border-box;width:100%;font:inherit;padding:.5rem;border:1px solid #98a2b3;border-radius:.25rem}
button{margin-top:1rem;font:inherit;padding:.5rem 1rem;border:0;border-radius:.25rem;background:#1570ef;color:#fff}
.problem{color:#b42318;font-weight:600}
a{color:#1553b6}
`;

/** A page of the gate: the same look for every refusal, no title, logo or anything else of the page. */
function GatePage({ heading, children, t }: { heading: string; children: ComponentChildren; t: Translator }) {
  return (
    <html lang={t.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{heading}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <main>
          <h1>{heading}</h1>
          {children}
        </main>
      </body>
    </html>
  );
}

/** The password form (no script): it posts to `action` and comes back here with the session cookie. */
/** The gate's pages speak the page's language (absent: English); they say nothing else of it. */
interface InLanguage {
  language?: PageLanguage;
}

export function renderPasswordPage(
  options: {
    action: string;
    problem?: 'wrong-password' | { retryAfterSeconds: number };
  } & InLanguage,
): string {
  const { problem } = options;
  const t = translator({ language: options.language });
  return renderHtmlDocument(
    <GatePage heading={t.text('gate.private')} t={t}>
      <p>{t.text('gate.enterPassword')}</p>
      {problem === 'wrong-password' && (
        <p class="problem" role="alert">
          {t.text('gate.wrongPassword')}
        </p>
      )}
      {typeof problem === 'object' && (
        <p class="problem" role="alert">
          {t.text('gate.tooManyAttempts', { seconds: problem.retryAfterSeconds })}
        </p>
      )}
      <form method="post" action={options.action}>
        <label for="password">{t.text('gate.password')}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">{t.text('gate.view')}</button>
      </form>
    </GatePage>,
  );
}

/** A range page seen from outside its ranges: private, with no word of which networks may see it. */
export function renderPrivatePage(options: InLanguage = {}): string {
  const t = translator({ language: options.language });
  return renderHtmlDocument(
    <GatePage heading={t.text('gate.private')} t={t}>
      <p>{t.text('gate.notForYou')}</p>
    </GatePage>,
  );
}

/** A client-only page to a visitor not signed in as one who may see it. */
export function renderSignInPage(options: { signInUrl: string } & InLanguage): string {
  const t = translator({ language: options.language });
  return renderHtmlDocument(
    <GatePage heading={t.text('gate.forClients')} t={t}>
      <p>
        <Words
          text={t.raw('gate.signInThenBack')}
          values={{ signIn: <a href={options.signInUrl}>{t.text('gate.signIn')}</a> }}
        />
      </p>
    </GatePage>,
  );
}

/** A client-only page on a custom domain, where the app's session cookie never comes. */
export function renderSignInAtAgencyPage(options: { pageUrl: string } & InLanguage): string {
  const t = translator({ language: options.language });
  return renderHtmlDocument(
    <GatePage heading={t.text('gate.forClients')} t={t}>
      <p>
        <Words
          text={t.raw('gate.signInElsewhere')}
          values={{ link: <a href={options.pageUrl}>{options.pageUrl}</a> }}
        />
      </p>
    </GatePage>,
  );
}
