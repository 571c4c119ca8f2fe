/**
 * Imported first by actor/main.ts: when the actor was started without Node's flags for actors
 * (ACTOR_NODE_FLAGS, e.g. by hand), it sets them now, for the code compiled from here on.
 */
import v8 from 'node:v8';
import { ACTOR_NODE_FLAGS } from '../src/api/contracts/engine';

for (const flag of ACTOR_NODE_FLAGS) if (!process.execArgv.includes(flag)) v8.setFlagsFromString(flag);
