/**
 * The content type of a call's successful answer, by its path: JSON unless the call sends a file
 * (CSV exports, the workbench's HTML, actor installers, captures, the files actors fetch). Shared by
 * the OpenAPI document (document.ts) and scripts/openapi-answers.ts (only JSON answers need a type).
 */
import type { JsonSchema } from './yup-json-schema';

export const answerContent = (url: string): Record<string, { schema: JsonSchema }> =>
  url.endsWith('.csv') || url.startsWith('/csv_') || url === '/reports/:source'
    ? { 'text/csv': { schema: { type: 'string' } } }
    : url === '/'
      ? { 'text/html': { schema: { type: 'string' } } }
      : url.endsWith('.sh') || url === '/actor_installer/:id/:file'
        ? { 'text/x-shellscript': { schema: { type: 'string' } } }
        : url === '/manage_sims/actions/download/:sim_id'
          ? { 'application/vnd.tcpdump.pcap': { schema: { type: 'string', contentMediaType: 'application/vnd.tcpdump.pcap' } } }
          : url === '/api/actor/work/:id/files/:fileId'
            ? { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } }
            : { 'application/json': { schema: {} } };

/** Whether a call answers JSON (and so needs an answer type). */
export const answersJson = (url: string): boolean => 'application/json' in answerContent(url);
