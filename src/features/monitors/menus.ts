/** The arguments of the monitors menus (src/commands/menus.ts). */
declare module '@/commands/menus' {
  interface MenuArgsMap {
    'row/monitor': { id: number };
    'toolbar/monitors': undefined;
  }
}
export {};
