// Lint fixture (tests/unit/lint-boundaries.test.ts): half of an import loop. Ignored by `eslint .`.
import { cycleB } from './cycle-b';

export const cycleA = (): string => `a${cycleB.name}`;
