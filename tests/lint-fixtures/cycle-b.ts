// Lint fixture (tests/unit/lint-boundaries.test.ts): the other half of an import loop. Ignored by `eslint .`.
import { cycleA } from './cycle-a';

export const cycleB = (): string => `b${cycleA.name}`;
