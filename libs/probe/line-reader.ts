import type { Socket } from 'node:net';
import { ProbeFailure } from './probe-error.js';

/** A line longer than this is cut: a server that never sends a newline cannot fill memory. */
const LINE_MAX_BYTES = 1024;
/** Lines of one reply at most (an SMTP EHLO answer has a dozen). */
const REPLY_MAX_LINES = 64;

/** A line as shown: control characters out, at most 200 characters. */
export const shownLine = (line: string) => [...line.replace(/\p{Cc}/gu, '')].slice(0, 200).join('');

/**
 * The lines a text protocol's server sends (SMTP, IMAP, POP3), read one reply at a time from a
 * socket that can be swapped for its TLS socket after STARTTLS. Bounded: long lines are cut,
 * replies longer than `REPLY_MAX_LINES` refused. Rejects with a `ProbeFailure` when the server
 * closes, and with the signal's reason when it aborts.
 */
export class LineReader {
  private buffered = Buffer.alloc(0);
  private lines: string[] = [];
  private waiter: (() => void) | null = null;
  private ended: Error | null = null;
  private socket: Socket | null = null;

  constructor(
    socket: Socket,
    private readonly signal: AbortSignal,
  ) {
    this.attach(socket);
  }

  private readonly onData = (chunk: Buffer) => {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const newline = this.buffered.indexOf(0x0a);
      if (newline < 0) {
        if (this.buffered.length >= LINE_MAX_BYTES) {
          this.lines.push(this.buffered.subarray(0, LINE_MAX_BYTES).toString('utf8'));
          this.buffered = Buffer.alloc(0);
        }
        break;
      }
      this.lines.push(this.buffered.subarray(0, Math.min(newline, LINE_MAX_BYTES)).toString('utf8'));
      this.buffered = this.buffered.subarray(newline + 1);
    }
    this.wake();
  };
  private readonly onEnd = () => {
    this.ended ??= new ProbeFailure('PROTOCOL', 'the server closed the connection');
    this.wake();
  };
  private readonly onError = (error: Error) => {
    this.ended ??= error;
    this.wake();
  };

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  /** Reads from `socket` from now on (the TLS socket after STARTTLS). */
  attach(socket: Socket): void {
    this.socket = socket;
    socket.on('data', this.onData);
    socket.once('end', this.onEnd);
    socket.once('close', this.onEnd);
    socket.on('error', this.onError);
  }

  /** Stops reading (before a TLS handshake takes the socket over); what the server sent early is dropped. */
  detach(): void {
    const socket = this.socket;
    if (!socket) return;
    socket.off('data', this.onData);
    socket.off('end', this.onEnd);
    socket.off('close', this.onEnd);
    socket.off('error', this.onError);
    this.socket = null;
    this.buffered = Buffer.alloc(0);
    this.lines = [];
  }

  /** The next line, without its line end. */
  async line(): Promise<string> {
    for (;;) {
      const next = this.lines.shift();
      if (next !== undefined) return next.replace(/\r$/, '');
      if (this.ended) throw this.ended;
      this.signal.throwIfAborted();
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        this.waiter = () => {
          this.signal.removeEventListener('abort', onAbort);
          resolve();
        };
        this.signal.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  /** Lines until `last` says one is the reply's last (an SMTP `250 ` after `250-` lines). */
  async reply(last: (line: string) => boolean): Promise<string[]> {
    const lines: string[] = [];
    for (;;) {
      const line = await this.line();
      lines.push(line);
      if (last(line)) return lines;
      if (lines.length >= REPLY_MAX_LINES)
        throw new ProbeFailure('PROTOCOL', `a reply of more than ${REPLY_MAX_LINES} lines`);
    }
  }

  write(text: string): void {
    this.socket?.write(text);
  }
}
