import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeConnection } from './close-connection';

describe('closeConnection', () => {
  it('destroys a real socket', () => {
    const socket = new net.Socket();
    closeConnection({ socket });
    expect(socket.destroyed).toBe(true);
  });

  it("leaves inject()'s stand-in socket (no destroy) alone instead of throwing", () => {
    const standIn = { remoteAddress: '127.0.0.1' } as unknown as IncomingMessage['socket'];
    expect(() => closeConnection({ socket: standIn })).not.toThrow();
  });
});
