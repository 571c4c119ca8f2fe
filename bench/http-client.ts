import http from 'node:http';

/**
 * The load generator's client for the many-clients runs: node:http over kept-alive connections, one
 * per client, reading each answer whole as it arrives (compressed, as a browser receives it; a browser
 * decompresses on its own machine). fetch (undici) cost this process 1.8-2.5 ms of CPU a call, more than
 * the director's own work at 32 clients on 2 cores, so the figures measured the load generator.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export interface Answer {
  status: number;
  /** Milliseconds from sending the request to the answer's last byte. */
  ms: number;
}

/** Sends one request and resolves when its answer has arrived whole. */
export function timedRequest(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: init.method ?? 'GET', headers: { 'accept-encoding': 'gzip, deflate, br', ...init.headers }, agent }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
