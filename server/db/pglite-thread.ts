/**
 * PGlite's own thread (started by pglite-remote.ts): runs the director's statements and transactions
 * on PGlite and answers each request with its rows or PostgreSQL's error.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startPglite, type PgliteTransaction } from './pglite';
import { failureOf, type PgliteReply, type PgliteRequest, type PgliteStart } from './pglite-protocol';

const port = parentPort;
if (!port) throw new Error('pglite-thread.ts runs as a worker thread.');
const start = workerData as PgliteStart;

/** Thrown into PGlite's transaction to roll it back when the director's side failed. */
class RollBack extends Error {}

const reply = (r: PgliteReply, transfer?: ArrayBuffer[]) => port.postMessage(r, transfer);
const fail = (id: number, e: unknown) => reply({ id, ok: false, error: failureOf(e) });

try {
  const pg = await startPglite(start.dataDir, start.from ? new Blob([start.from]) : undefined);
  // Open transactions, each waiting for the director's `end`.
  const open = new Map<number, { tx: PgliteTransaction; end: (commit: boolean, endId: number) => void }>();
  let nextTx = 1;
  const inTx = (tx: number | undefined): PgliteTransaction | undefined => {
    if (tx === undefined) return undefined;
    const t = open.get(tx);
    if (!t) throw new Error(`Transaction ${tx} is not open.`);
    return t.tx;
  };
  const handle = async (m: PgliteRequest): Promise<void> => {
    switch (m.op) {
      case 'query':
        return reply({ id: m.id, ok: true, answer: await pg.query(m.sql, m.params, m.name, inTx(m.tx)) });
      case 'exec':
        await pg.exec(m.sql, inTx(m.tx));
        return reply({ id: m.id, ok: true });
      case 'begin': {
        // Answers `begin` once PGlite has opened the transaction (after those before it), and `end` once
        // it has committed or rolled back.
        const id = nextTx++;
        let endId: number | undefined;
        pg.transaction(async (tx) => {
          const commit = await new Promise<boolean>((resolve) => {
            open.set(id, { tx, end: (c, e) => ((endId = e), resolve(c)) });
            reply({ id: m.id, ok: true, tx: id });
          });
          open.delete(id);
          if (!commit) throw new RollBack();
        }).then(
          () => reply({ id: endId ?? m.id, ok: true }),
          (e: unknown) => (e instanceof RollBack ? reply({ id: endId ?? m.id, ok: true }) : fail(endId ?? m.id, e)),
        );
        return;
      }
      case 'end': {
        const t = open.get(m.tx);
        if (!t) throw new Error(`Transaction ${m.tx} is not open.`);
        t.end(m.commit, m.id);
        return;
      }
      case 'dump': {
        const dump = await (await pg.dumpDataDir()).arrayBuffer();
        return reply({ id: m.id, ok: true, dump }, [dump]);
      }
      case 'close':
        await pg.close();
        reply({ id: m.id, ok: true });
        port.close();
        return;
    }
  };
  port.on('message', (m: PgliteRequest) => {
    handle(m).catch((e: unknown) => fail(m.id, e));
  });
  reply({ id: 0, ok: true });
} catch (e) {
  fail(0, e);
}
