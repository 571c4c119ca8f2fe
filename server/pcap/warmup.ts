/**
 * The parser's first capture in a process runs in V8's interpreter until its hot functions are
 * compiled, which made the first upload after the director started much slower than the next ones.
 * Parsing and assessing a small synthetic capture a few times when the director starts (2 MB in
 * memory, four passes: 60-250 ms depending on the machine's load) gets the parser, the conversation
 * tracker and the assessment compiled before the first real upload. 2 MB parsed once is not enough:
 * V8 compiles a function only after it has run for a while.
 */
import { CaptureAnalyzer } from './analyze';
import { assess, type ConversationRecord } from './assess';
import { synthesizeCapture } from './synth';

let warmed = false;

/**
 * Once per process (null after the first call): returns when it started and the conversations of the
 * synthetic capture (to warm up storing them too).
 */
export function warmUpPcapParser(bytes = 2e6, passes = 4): { started: number; conversations: ConversationRecord[] } | null {
  if (warmed) return null;
  warmed = true;
  const t0 = performance.now();
  // Short conversations (a quarter of the usual length): many rows, as a real capture has.
  const parts: Buffer[] = [];
  synthesizeCapture(bytes, (chunk) => parts.push(Buffer.from(chunk)), 5, 0.25, 64 * 1024);
  let conversations: ConversationRecord[] = [];
  for (let pass = 0; pass < passes; pass++) {
    // A listener like the upload's (which records each packet's offset), fed in socket-sized chunks.
    let lastOffset = 0;
    const analyzer = new CaptureAnalyzer((rec) => {
      lastOffset = Math.max(lastOffset, rec.fileOffset);
    });
    for (const part of parts) analyzer.push(part);
    const a = analyzer.end();
    if (lastOffset === 0) break;
    conversations = assess(a, { anonymizeIp: pass % 2 === 0, anonymizeMac: pass % 2 === 0 }).conversations;
  }
  return { started: t0, conversations };
}
