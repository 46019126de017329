import { useState } from 'preact/hooks';
import type { Schemas } from '../api/client.js';
import { useResultEvidence } from '../api/websites.js';

type Evidence = Schemas['Evidence'];

/**
 * What a failing check saw, read when opened: the answer's status, headers and body (shown as
 * text, never rendered), the redirects, the connection's address and TLS, or the network error.
 */
export function EvidenceView({ websiteRef, resultRef }: { websiteRef: string; resultRef: string }) {
  const [opened, setOpened] = useState(false);
  const loaded = useResultEvidence(websiteRef, resultRef, opened);
  const evidence = loaded.data;
  const failure = loaded.error;
  const open = (event: Event) => {
    if ((event.currentTarget as HTMLDetailsElement).open) setOpened(true);
  };
  return (
    <details class="evidence" onToggle={open}>
      <summary>What it answered</summary>
      {failure && <p class="error-text">{failure}</p>}
      {!evidence && !failure && <p class="muted">Loading…</p>}
      {evidence && <EvidenceDetails evidence={evidence} />}
    </details>
  );
}

export function EvidenceDetails({ evidence }: { evidence: Evidence }) {
  const { body, tls } = evidence;
  return (
    <div>
      <dl class="facts">
        <dt>Answer</dt>
        <dd>{evidence.statusLine ?? 'no answer came'}</dd>
        {evidence.error && (
          <>
            <dt>Error</dt>
            <dd>
              {evidence.error.message} ({evidence.error.code})
            </dd>
          </>
        )}
        <dt>From</dt>
        <dd>
          {evidence.finalUrl}
          {evidence.address && ` (${evidence.address})`}, region {evidence.region}
        </dd>
        {evidence.redirects.length > 0 && (
          <>
            <dt>Redirects</dt>
            <dd>
              <ol>
                {evidence.redirects.map((hop) => (
                  <li key={hop.url}>
                    {hop.status} {hop.url} → {hop.location}
                  </li>
                ))}
              </ol>
            </dd>
          </>
        )}
        {tls && (
          <>
            <dt>TLS</dt>
            <dd>
              {[tls.protocol, tls.cipher].filter(Boolean).join(', ')}; {tls.subject}, issued by {tls.issuer},
              valid {tls.validFrom.slice(0, 10)} to {tls.validTo.slice(0, 10)}
              {tls.chainError && `; chain: ${tls.chainError}`}
              {!tls.hostnameMatches && '; not for this host name'}
            </dd>
          </>
        )}
      </dl>
      {Object.keys(evidence.headers).length > 0 && (
        <table class="headers">
          <caption>Headers</caption>
          <tbody>
            {Object.entries(evidence.headers).map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {body?.kind === 'text' && (
        <>
          <p class="muted">
            Body ({body.charset}, {body.bytes.toLocaleString()} bytes
            {body.truncated ? ', the first 16 KB shown' : ''}):
          </p>
          <pre class="body-text">{body.text}</pre>
        </>
      )}
      {body?.kind === 'binary' && (
        <p class="muted">
          Body: {body.contentType}, {body.bytes.toLocaleString()} bytes (not text)
        </p>
      )}
      {body?.kind === 'omitted' && (
        <p class="muted">
          Body: {body.bytes.toLocaleString()} bytes, not kept. {body.reason}.
        </p>
      )}
    </div>
  );
}
