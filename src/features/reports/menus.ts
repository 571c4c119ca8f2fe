/** A dashboard as its buttons see it (Dashboards list row, dashboard toolbar). */
export interface DashboardMenuArgs {
  id: number;
  editable: boolean;
}

/** A panel of an editable dashboard (its header buttons). */
export interface PanelMenuArgs {
  id: number;
  uid: string;
  title: string;
}

declare module '@/commands/menus' {
  interface MenuArgsMap {
    'toolbar/dashboards': undefined;
    'row/dashboard': DashboardMenuArgs;
    'toolbar/dashboard': DashboardMenuArgs;
    'panel/dashboard': PanelMenuArgs;
  }
}
