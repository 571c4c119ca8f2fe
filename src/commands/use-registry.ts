import { useSyncExternalStore } from 'react';
import type { CommandRegistry } from './registry';

/** Re-renders when commands are registered or removed. */
export function useRegistryVersion(registry: CommandRegistry): number {
  return useSyncExternalStore(
    (cb) => registry.subscribe(cb),
    () => registry.getVersion(),
  );
}
