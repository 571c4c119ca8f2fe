import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal } from '@/panes/lazy';

/** The sign-in page and the user menu are imported by src/app directly (the shell and the workbench's top bar). */
export const authFeature: FeatureModule = {
  id: 'auth',
  globals: [lazyGlobal(() => import('./session-timeout'), 'SessionTimeout'), lazyGlobal(() => import('./change-password-dialog'), 'ChangePasswordDialog')],
};
