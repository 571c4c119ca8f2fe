/**
 * The parser's first capture in a process runs in V8's interpreter until its hot functions are
 * compiled, which made the first upload after the director started ~40% slower than the next ones.
 * Parsing and assessing a small synthetic capture once when the director starts (in memory, about
 * 3 MB, ~70 ms) lets the first real upload run compiled code.
 */
import { CaptureAnalyzer } from './analyze';
import { assess } from './assess';
import { synthesizeCapture } from './synth';

let warmed = false;

/** Once per process: parses and assesses a synthetic capture. Returns the milliseconds it took (0 when already done). */
export function warmUpPcapParser(bytes = 3e6): number {
  if (warmed) return 0;
  warmed = true;
  const t0 = performance.now();
  let lastOffset = 0;
  // A listener like the upload's (which records each packet's offset), fed in socket-sized chunks.
  const analyzer = new CaptureAnalyzer((rec) => {
    lastOffset = rec.fileOffset;
  });
  synthesizeCapture(bytes, (chunk) => analyzer.push(chunk), 5, 1, 64 * 1024);
  const a = analyzer.end();
  assess(a, { anonymizeIp: true, anonymizeMac: true });
  assess(a, { anonymizeIp: false, anonymizeMac: false });
  return lastOffset > 0 ? performance.now() - t0 : 0;
}
