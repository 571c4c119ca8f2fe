/**
 * The answers of the calls whose handlers send their JSON through `reply` (pre-serialized, cached
 * bytes), where TypeScript cannot see what they answer and the workbench makes no typed call:
 * `METHOD /path` -> the answer type. scripts/openapi-answers.ts reads this interface with the typed
 * client calls and the routes' declared answers; every other call's answer type comes from those.
 */
import type { OpenApiDescription } from './document';
import type { TreeFilterAnswer } from '../../src/api/contracts/library/answers';

export interface DeclaredAnswers {
  'POST /manage_sims/library_actions_filter.json': TreeFilterAnswer;
  'GET /api/openapi.json': OpenApiDescription;
}
