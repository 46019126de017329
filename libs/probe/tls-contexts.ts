import { createHash } from 'node:crypto';
import { createSecureContext, type SecureContext } from 'node:tls';

/** Client-certificate contexts kept; a website's next check reuses its own. */
const CLIENT_CONTEXTS_KEPT = 1000;

/**
 * The TLS contexts probes connect with. Building one parses every trusted root (~30 ms of CPU for
 * the system's ~140), so the plain one is built once and shared by every check, and one per client
 * certificate (mTLS websites) is built on first use and kept, least recently used dropped first.
 */
export class TlsContexts {
  private readonly shared: SecureContext;
  private readonly clients = new Map<string, SecureContext>();

  constructor(private readonly ca: readonly string[]) {
    this.shared = createSecureContext({ ca: [...ca] });
  }

  /** The context for a connection: the shared one, or the client certificate's own. Throws on a bad PEM. */
  contextFor(clientCertificate: { cert: string; key: string } | null): SecureContext {
    if (!clientCertificate) return this.shared;
    const key = createHash('sha256')
      .update(clientCertificate.cert)
      .update('\0')
      .update(clientCertificate.key)
      .digest('base64');
    const cached = this.clients.get(key);
    if (cached) {
      // Re-inserted: a Map iterates oldest first, so the first key is the least recently used.
      this.clients.delete(key);
      this.clients.set(key, cached);
      return cached;
    }
    const context = createSecureContext({ ca: [...this.ca], ...clientCertificate });
    this.clients.set(key, context);
    if (this.clients.size > CLIENT_CONTEXTS_KEPT) {
      const oldest = this.clients.keys().next().value;
      if (oldest !== undefined) this.clients.delete(oldest);
    }
    return context;
  }
}
