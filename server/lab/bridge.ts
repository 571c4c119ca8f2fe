/**
 * The lab's bridge to the director: `node --import tsx server/lab/bridge.ts SOCKET HOST PORT`
 * listens on a Unix socket (mode 0600, so only root, who runs the lab's actors, can use it) and
 * joins each connection to the director's TCP port on this host. Unix sockets are files, not part
 * of a network namespace, so the actors inside the lab's namespaces reach a director listening on
 * the host's loopback without any route out of the lab.
 */
import fs from 'node:fs';
import net from 'node:net';

const [socketPath, host, portText] = process.argv.slice(2);
const port = Number(portText);
if (!socketPath || !host || !Number.isInteger(port) || port <= 0) {
  console.error('Usage: bridge.ts SOCKET HOST PORT');
  process.exit(2);
}

fs.rmSync(socketPath, { force: true });
const server = net.createServer((client) => {
  const upstream = net.connect({ host, port });
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end);
  upstream.on('error', end);
});
server.listen(socketPath, () => {
  fs.chmodSync(socketPath, 0o600);
  console.log(`bridge ${socketPath} -> ${host}:${port}`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
