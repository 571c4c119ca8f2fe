/**
 * The network map's director calls (jobs-simulations-network-map.md sections 2, 3, 7 and 8):
 * the map items (GET /topology/network.json, JOB-094, JOB-044) and the operator's saved layout.
 */
import * as yup from 'yup';

/** JOB-025: the layout modes, in shortcut order (L1 to L6). */
export const LAYOUT_MODES = ['Standard', 'Organic', 'Sequential', 'Lens', 'Structural', 'Tweak'] as const;
export type LayoutMode = (typeof LAYOUT_MODES)[number];

/** Map items are named '{zone|node|device}_{id}', as in topology_links. */
export type ItemKey = `${'zone' | 'node' | 'device'}_${number}`;
export const ITEM_KEY = /^(zone|node|device)_[1-9][0-9]{0,8}$/;

export interface MapNode {
  id: number;
  name: string;
  node_type: string;
  os: string;
  status: 'online' | 'offline' | 'pending';
  mgmt_address: string;
  sim_address: string;
  monitor_address: string;
  /** The parent zone (nodes.security_zone_id). */
  zone_id: number | null;
  /** A help file (under /help/) or an http URL (JOB-006, JOB-026). */
  help: string;
}

export interface DeviceInterface {
  name: string;
  ip_address: string;
  zone_id: number | null;
}

export interface MapDevice {
  id: number;
  name: string;
  device_type: string;
  description: string;
  interfaces: DeviceInterface[];
  prevention_enabled: boolean;
  /** The zones the device sits between (device_zones). */
  zone_ids: number[];
  help: string;
}

export interface MapZone {
  id: number;
  name: string;
  description: string;
  cidr: string;
  /** The zone's combo: the keys of the items its box groups (its actors), drawn inside it. */
  combos: ItemKey[];
}

export interface MapLink {
  id: number;
  id1: ItemKey;
  id2: ItemKey;
  /** The reverse link's id (id2 to id1), or null when there is none. */
  compliment_id: number | null;
}

export interface NetworkMap {
  zones: MapZone[];
  nodes: MapNode[];
  devices: MapDevice[];
  links: MapLink[];
}

export interface Point {
  x: number;
  y: number;
}

/** A user's saved map: the chosen mode and the items' top-left positions (used by Tweak). */
export interface MapLayout {
  mode: LayoutMode;
  positions: Record<string, Point>;
  updated_at: string | null;
}

export const MAX_LAYOUT_ITEMS = 5000;
export const MAX_COORDINATE = 1_000_000;

export const SAVE_FAILED = 'An error occurred while attempting to save the current network state.';
export const RETRIEVE_FAILED = 'An error occurred while attempting to retrieve the current network state.';

const coordinate = (axis: string) =>
  yup.number().typeError(`${axis} must be a number`).required(`${axis} is required`).strict().min(-MAX_COORDINATE, `${axis} must be at least ${-MAX_COORDINATE}`).max(MAX_COORDINATE, `${axis} must be at most ${MAX_COORDINATE}`);

/** Checks each position; the object itself is checked by layoutSchema's test. */
export const pointSchema = yup.object({ x: coordinate('x'), y: coordinate('y') }).noUnknown('A position has only x and y').strict();

export const layoutSchema = yup.object({
  mode: yup.string().required('mode is required').oneOf([...LAYOUT_MODES], `mode must be one of ${LAYOUT_MODES.join(', ')}`),
  positions: yup
    .mixed<Record<string, Point>>()
    .required('positions is required')
    .test('positions', (value, ctx) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return ctx.createError({ message: 'positions must be an object of item keys' });
      const entries = Object.entries(value);
      if (entries.length > MAX_LAYOUT_ITEMS) return ctx.createError({ message: `positions may hold at most ${MAX_LAYOUT_ITEMS} items` });
      for (const [key, point] of entries) {
        if (!ITEM_KEY.test(key)) return ctx.createError({ message: `"${key.slice(0, 40)}" is not a map item (zone_N, node_N or device_N)` });
        try {
          pointSchema.validateSync(point);
        } catch (e) {
          return ctx.createError({ message: `${key}: ${(e as Error).message}` });
        }
      }
      return true;
    }),
});
