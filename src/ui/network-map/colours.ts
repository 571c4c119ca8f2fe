import type { MapNode } from '@/api/contracts/topology';

/** Actor status colours on the map, its legend and the details card. */
export const STATUS_COLOURS: Record<MapNode['status'], string> = { online: '#22c55e', offline: '#ef4444', pending: '#f59e0b' };
/** Devices with prevention enabled, and without. */
export const DEVICE_COLOURS = { prevention: '#a78bfa', detection: '#64748b' } as const;
