import type { AnyCommand } from '@/commands/types';
import { exportCommands } from './export';
import { jobActionCommands } from './job-actions';
import { listFilterCommands } from './list-filter';
import { navigationCommands } from './navigation';
import { operationCommands } from './operations';
import { rowCommands } from './row-moves';

export { runExport } from './export-csv';

/** Every jobs command, React-free (scripts and the terminal runner use them too), one concern per file. */
export const jobsCommands: AnyCommand[] = [...rowCommands, ...operationCommands, ...exportCommands, ...navigationCommands, ...listFilterCommands, ...jobActionCommands];
