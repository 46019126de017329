/** @jsxRuntime automatic @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
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
function GatePage({ heading, children }: { heading: string; children: ComponentChildren }) {
  return (
    <html lang="en">
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
export function renderPasswordPage(options: {
  action: string;
  problem?: 'wrong-password' | { retryAfterSeconds: number };
}): string {
  const { problem } = options;
  return renderHtmlDocument(
    <GatePage heading="This status page is private">
      <p>Enter the page’s password to see it.</p>
      {problem === 'wrong-password' && (
        <p class="problem" role="alert">
          That password is not right.
        </p>
      )}
      {typeof problem === 'object' && (
        <p class="problem" role="alert">
          {`Too many attempts from your address. Try again in ${problem.retryAfterSeconds} s.`}
        </p>
      )}
      <form method="post" action={options.action}>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit">View the status page</button>
      </form>
    </GatePage>,
  );
}

/** A range page seen from outside its ranges: private, with no word of which networks may see it. */
export function renderPrivatePage(): string {
  return renderHtmlDocument(
    <GatePage heading="This status page is private">
      <p>It cannot be shown to you.</p>
    </GatePage>,
  );
}

/** A client-only page to a visitor not signed in as one who may see it. */
export function renderSignInPage(options: { signInUrl: string }): string {
  return renderHtmlDocument(
    <GatePage heading="This status page is for signed-in clients">
      <p>
        <a href={options.signInUrl}>Sign in</a> with an account that may see it, then come back here.
      </p>
    </GatePage>,
  );
}

/** A client-only page on a custom domain, where the app's session cookie never comes. */
export function renderSignInAtAgencyPage(options: { pageUrl: string }): string {
  return renderHtmlDocument(
    <GatePage heading="This status page is for signed-in clients">
      <p>
        Your sign-in does not reach this address. Open the page where you sign in:{' '}
        <a href={options.pageUrl}>{options.pageUrl}</a>
      </p>
    </GatePage>,
  );
}
