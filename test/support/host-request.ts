import { request } from 'node:http';

/** A GET to `baseUrl` with a `Host` of the test's choosing (fetch does not let one set it). */
export function getWithHost(
  baseUrl: string,
  host: string,
  path: string,
): Promise<{ status: number; type: string; body: string }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'GET', headers: { host } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          type: String(response.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end();
  });
}
