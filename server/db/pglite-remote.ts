import { Worker } from 'node:worker_threads';
import { isNewPgliteDir, type PgliteAnswer, type PgliteStatements } from './pglite';
import { errorFrom, type PgliteReply, type PgliteRequest, type PgliteStart } from './pglite-protocol';

/** PGlite's statements on its thread, and `stopped`: settles if that thread ends before `close`. */
type PgliteOnThread = PgliteStatements<number> & { stopped: Promise<Error> };

/**
 * Starts PGlite on a thread of its own and answers its statements here. PostgreSQL's work (WebAssembly,
 * most of the director's time on PGlite) then runs beside the director's JavaScript instead of between
 * it: the director parses requests, writes answers and plans the engine's passes while a statement runs.
 * Statements and transactions keep PGlite's semantics: PGlite's own locks order them on its thread.
 */
export async function startPgliteThread(dataDir: string | undefined, from?: Blob): Promise<PgliteOnThread> {
  // A new data directory is created on a thread that then ends: PGlite's initdb runs a second PostgreSQL
  // and leaves 300-450 MB of its memory to the thread that ran it (a director's RSS 710-750 MB after its
  // migrations instead of about 400). Ending that thread gives it all back; the director's PGlite then opens
  // the database as at any later start. (A database in memory lives in its thread: it cannot move.)
  if (dataDir && !from && isNewPgliteDir(dataDir)) await (await runThread({ dataDir, from: undefined })).close();
  return runThread({ dataDir, from: from ? await from.arrayBuffer() : undefined });
}

/** Starts PGlite's thread and answers its statements. */
async function runThread(start: PgliteStart): Promise<PgliteOnThread> {
  const worker = new Worker(new URL('./pglite-thread-start.mjs', import.meta.url), {
    workerData: start,
    ...(start.from ? { transferList: [start.from] } : {}),
  });
  const waiting = new Map<number, { resolve: (r: PgliteReply & { ok: true }) => void; reject: (e: Error) => void }>();
  let stopped: Error | undefined;
  let closing = false;
  let next = 1;
  let nextTx = 1;
  let onStop: (e: Error) => void = () => {};
  const stoppedUnexpectedly = new Promise<Error>((resolve) => (onStop = resolve));
  const stop = (e: Error) => {
    if (stopped) return;
    stopped = e;
    for (const w of waiting.values()) w.reject(e);
    waiting.clear();
    if (!closing) onStop(e);
  };
  worker.on('message', (reply: PgliteReply) => {
    const w = waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id);
    if (reply.ok) w.resolve(reply);
    else w.reject(errorFrom(reply.error));
  });
  worker.on('error', (e) => stop(new Error(`The database stopped: ${e.message}`)));
  worker.on('exit', (code) => stop(new Error(`The database stopped (its thread exited with code ${code}).`)));
  const ask = (request: PgliteRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never): Promise<PgliteReply & { ok: true }> => {
    if (stopped) return Promise.reject(stopped);
    const id = next++;
    return new Promise((resolve, reject) => {
      // A parameter that cannot cross to the other thread (a function) fails its statement alone.
      try {
        worker.postMessage({ ...request, id } as PgliteRequest);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      waiting.set(id, { resolve, reject });
    });
  };
  // An error built as the answer arrives has no caller in its stack: it gets its awaiting callers' (V8's
  // async stack trace) here, where it is thrown again, so a failed statement's log names the code that ran it.
  const answered = async (request: Parameters<typeof ask>[0]) => {
    try {
      return await ask(request);
    } catch (e) {
      if (e instanceof Error) Error.captureStackTrace(e, answered);
      throw e;
    }
  };
  // The thread answers its start (id 0) once PGlite is ready, or fails it.
  try {
    await new Promise<void>((resolve, reject) => {
      waiting.set(0, { resolve: () => resolve(), reject });
    });
  } catch (e) {
    closing = true;
    await worker.terminate();
    throw e;
  }
  return {
    stopped: stoppedUnexpectedly,
    async query<T>(sql: string, params: unknown[], name: string | undefined, tx: number | undefined) {
      const reply = await answered({ op: 'query', sql, params, name, tx });
      return reply.answer as PgliteAnswer<T>;
    },
    async exec(sql: string, tx: number | undefined) {
      await answered({ op: 'exec', sql, tx });
    },
    async transaction<T>(fn: (tx: number, behind?: (last: Promise<unknown>) => void) => Promise<T>): Promise<T> {
      // Numbered here, so its statements follow `begin` at once (pglite-thread.ts waits for it to open).
      const tx = nextTx++;
      const begun = ask({ op: 'begin', tx });
      begun.catch(() => undefined);
      // Statements the commit is sent behind: already posted, so the thread runs them before the commit.
      const behind: Promise<unknown>[] = [];
      let out: T;
      try {
        out = await fn(tx, (last) => {
          last.catch(() => undefined);
          behind.push(last);
        });
        await begun;
      } catch (e) {
        await ask({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw e;
      }
      const committed = answered({ op: 'end', tx, commit: true });
      committed.catch(() => undefined);
      // A failed statement behind fails the transaction with its own error (PGlite then rolls back).
      await Promise.all(behind);
      await committed;
      return out;
    },
    async dumpDataDir() {
      const { dump } = await ask({ op: 'dump' });
      return new Blob([dump ?? new ArrayBuffer(0)]);
    },
    async close() {
      if (stopped) return;
      closing = true;
      await ask({ op: 'close' });
      await worker.terminate();
    },
  };
}
