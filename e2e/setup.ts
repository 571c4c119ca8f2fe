import { inject } from 'vitest';
import { SEEDED_DIR_VARIABLE } from './director';

// The files' own directors (startDirector) start from copies of the run's seeded data directory.
process.env[SEEDED_DIR_VARIABLE] = inject('seededDir');
