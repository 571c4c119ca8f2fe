/**
 * Action types performed by their own modules (one per type): perform.ts asks here first, so each
 * type's target and source sides live together and the per-type switch stays small.
 */
import type { WorkPayload } from '../../src/api/contracts/engine';
import type { Outcome, PerformOptions, TargetHandle } from './contract';
import { captiveDnsSource, captiveIocUrlSource } from './captive';
import { captivePcapSource } from './captive-pcap';
import { dnsPeerSource, dnsTarget } from './dns';
import { emailSource, emailTarget } from './email';
import { fileTransferSource, fileTransferTarget } from './file-transfer';
import { hostCliSource } from './host-cli';
import { pcapPeerSource, startPcapTarget } from './pcap-replay';

export interface TypePerformer {
  /** The target side (absent for single-actor types). */
  target?: (w: WorkPayload, opts: PerformOptions) => Promise<TargetHandle>;
  source: (w: WorkPayload, signal: AbortSignal, opts: PerformOptions) => Promise<Outcome>;
}

export const PERFORMERS: Record<string, TypePerformer> = {
  host_cli: { source: hostCliSource },
  dns: { target: dnsTarget, source: dnsPeerSource },
  captive_dns: { source: captiveDnsSource },
  captive_ioc_url: { source: captiveIocUrlSource },
  captive_ioc_pcap: { source: captivePcapSource },
  email: { target: emailTarget, source: emailSource },
  file_transfer: { target: fileTransferTarget, source: fileTransferSource },
  pcap: { target: startPcapTarget, source: pcapPeerSource },
};
