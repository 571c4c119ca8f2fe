/**
 * What perform.ts and the per-type performers in this folder agree on: the outcome of a source, the
 * handle of a target, the options an actor runs with, and the error that marks work this actor cannot
 * do. Kept apart from perform.ts so that the performers, which perform.ts dispatches to, do not import
 * perform.ts back (an import loop).
 */

export type Evidence = Record<string, unknown>;

export interface Outcome {
  outcome: 'ran' | 'errored' | 'incompatible' | 'aborted';
  blocked: boolean | null;
  message: string | null;
  evidence: Evidence;
}

export interface TargetHandle {
  port_map: Record<string, number>;
  port_failures: Record<string, string>;
  /** The login of a service the target runs for the source (file_transfer's one-time sshd). */
  login?: string;
  evidence(): Evidence;
  close(): Promise<void>;
}

export interface PerformOptions {
  allowHostCli: boolean;
  /** TLS key and certificate for https websites (self-signed, made at start when openssl is present). */
  tls?: { key: string; cert: string } | undefined;
  /** Test hook: an in-path device altering what the target sends. */
  tamper?: ((actionType: string, data: Buffer) => Buffer) | undefined;
  /** The bytes of a file-library entry the work names (checked against its sha256). */
  fetchFile?: ((fileId: number) => Promise<Buffer>) | undefined;
}

/** Work this actor cannot perform (a missing tool, a refused address, an unknown type). */
export class Incompatible extends Error {}
