import type { BulkTokenRow } from '@/api/contracts/actors';

declare module '@/commands/menus' {
  interface MenuArgsMap {
    'row/bulk-token': BulkTokenRow;
  }
}

/** The row's own id as the command's argument. */
export const tokenIdOf = (row: BulkTokenRow) => ({ id: row.id });
