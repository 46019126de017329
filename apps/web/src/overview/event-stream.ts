import { pastedToken, tellAuthLost } from '../api/client.js';

/** One server-sent event: its type (`message` when unnamed), data and id. */
export interface StreamEvent {
  type: string;
  data: string;
  id: string | undefined;
}

export interface EventStreamHandlers {
  event(event: StreamEvent): void;
  /** The stream is open (again). */
  open(): void;
  /**
   * The stream failed or ended (`status`: a refusal's); it is opened again after `retryMs` (the
   * server's `retry`, or longer), or never (null) when the refusal will not change by waiting.
   */
  broken(status: number | null, retryMs: number | null): void;
}

/** Waited before reconnecting when the server said nothing else, and at most after failures. */
const RETRY_MS = 3000;
const RETRY_MAX_MS = 60_000;

/**
 * Server-sent events read with `fetch` rather than `EventSource`: an automation account's pasted
 * token goes in the Authorization header (an EventSource sends cookies only), and a refusal's status
 * (401, 503) is seen. Reconnects as EventSource does, with `Last-Event-ID` (`0` when none was seen,
 * which the server answers with `resync`), backing off while it keeps failing. Returns a closer.
 */
export function openEventStream(url: string, handlers: EventStreamHandlers): () => void {
  const abort = new AbortController();
  let lastId: string | undefined;
  let retryMs = RETRY_MS;
  let failures = 0;
  let connected = false;
  let signedOut = false;

  const dispatch = (block: string) => {
    let type = 'message';
    const data: string[] = [];
    let id: string | undefined;
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') type = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
      else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
    }
    if (id !== undefined) lastId = id;
    // The server ended the stream: its caller signed out (here or elsewhere) or lost its token.
    if (type === 'signed-out') {
      signedOut = true;
      return;
    }
    if (data.length > 0) handlers.event({ type, data: data.join('\n'), id });
  };

  const run = async (): Promise<number | null> => {
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    const token = pastedToken.get();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (connected) headers['Last-Event-ID'] = lastId ?? '0';
    const response = await fetch(url, { headers, signal: abort.signal, cache: 'no-store' });
    if (!response.ok || !response.body) return response.status;
    connected = true;
    failures = 0;
    handlers.open();
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return null;
      buffered += value.replace(/\r\n?/g, '\n');
      let end = buffered.indexOf('\n\n');
      while (end >= 0) {
        dispatch(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\n\n');
      }
    }
  };

  const loop = async () => {
    while (!abort.signal.aborted) {
      let status: number | null = null;
      try {
        status = await run();
      } catch {
        if (abort.signal.aborted) return;
      }
      if (signedOut) status = 401;
      // Signed out, not allowed, gone: asking again would only count as failed authentications.
      if (status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429) {
        if (status === 401) tellAuthLost(401);
        handlers.broken(status, null);
        return;
      }
      failures++;
      const wait = Math.min(retryMs * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
      handlers.broken(status, wait);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
  void loop();
  return () => abort.abort();
}
