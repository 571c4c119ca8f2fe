import { inject } from 'vitest';
import { DIRECTOR_BUNDLE_VARIABLE, SEEDED_DIR_VARIABLE } from './director';

// The files' own directors (startDirector) start from copies of the run's seeded data directory.
process.env[SEEDED_DIR_VARIABLE] = inject('seededDir');
// ... and run the run's bundle of the director (bundleDirector).
process.env[DIRECTOR_BUNDLE_VARIABLE] = inject('directorBundle');
