import type { FeatureModule } from '@/panes/feature-module';
import { lazyGlobal } from '@/panes/lazy';
import { SessionTimeout } from './session-timeout';

export { SignInPage } from './sign-in-page';
export { UserMenu } from './user-menu';

export const authFeature: FeatureModule = {
  id: 'auth',
  globals: [() => <SessionTimeout />, lazyGlobal(() => import('./change-password-dialog'), 'ChangePasswordDialog')],
};
