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
  // Transactions by the director's number: opened (or failing to open) in PGlite, and waiting for its `end`.
  const open = new Map<number, { ready: Promise<PgliteTransaction>; end: (commit: boolean, endId: number) => void }>();
  const inTx = async (tx: number | undefined): Promise<PgliteTransaction | undefined> => {
    if (tx === undefined) return undefined;
    const t = open.get(tx);
    if (!t) throw new Error(`Transaction ${tx} is not open.`);
    return t.ready;
  };
  const handle = async (m: PgliteRequest): Promise<void> => {
    switch (m.op) {
      case 'query':
        return reply({ id: m.id, ok: true, answer: await pg.query(m.sql, m.params, m.name, await inTx(m.tx)) });
      case 'exec':
        await pg.exec(m.sql, await inTx(m.tx));
        return reply({ id: m.id, ok: true });
      case 'begin': {
        // The director sends a transaction's statements (and its `end`) right behind `begin`, without waiting
        // for it: they wait here for PGlite to open it (after the transactions before it). Waiting for each
        // answer on the director's side held PGlite's transaction lock idle for a round trip per step.
        let opened!: (tx: PgliteTransaction) => void;
        let notOpened!: (e: unknown) => void;
        const ready = new Promise<PgliteTransaction>((resolve, reject) => ((opened = resolve), (notOpened = reject)));
        ready.catch(() => undefined);
        let ended!: (commit: boolean) => void;
        const end = new Promise<boolean>((resolve) => (ended = resolve));
        let endId: number | undefined;
        open.set(m.tx, { ready, end: (commit, id) => ((endId = id), ended(commit)) });
        let began = false;
        pg.transaction(async (tx) => {
          began = true;
          opened(tx);
          reply({ id: m.id, ok: true });
          if (!(await end)) throw new RollBack();
        })
          .then(
            () => reply({ id: endId ?? m.id, ok: true }),
            (e: unknown) => {
              notOpened(e);
              if (!began) {
                // Never opened: `begin` fails, and an `end` already sent (a rollback) has nothing to end.
                fail(m.id, e);
                if (endId !== undefined) reply({ id: endId, ok: true });
              } else if (e instanceof RollBack) reply({ id: endId ?? m.id, ok: true });
              else fail(endId ?? m.id, e);
            },
          )
          .finally(() => open.delete(m.tx));
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
