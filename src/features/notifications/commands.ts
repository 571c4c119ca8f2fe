import * as yup from 'yup';
import { siteBannerSchema, type SiteBanner } from '@/api/contracts/site-banner';
import { defineCommand } from '@/commands/registry';
import type { AnyCommand, CommandContext } from '@/commands/types';
import { noticeFlash } from '@/ui/toasts';
import { putSiteBanner, siteBannerQueryKey, siteBannerStore } from './site-banner-api';

type BannerArgs = Partial<SiteBanner>;

/** Without values (palette) the editor opens; with values (a script, the editor's Save) the banner is stored. */
const wantsEditor = (args: BannerArgs, ctx: CommandContext) => Object.values(args).every((v) => v === undefined) && !!ctx.dock && typeof document !== 'undefined';

export const notificationsCommands: AnyCommand[] = [
  defineCommand<BannerArgs, SiteBanner | null>({
    id: 'settings.siteBanner',
    title: 'Edit Site Banner…',
    buttonLabel: 'Save Banner',
    category: 'Settings',
    keywords: ['banner', 'announcement', 'maintenance', 'warning', 'message', 'colour', 'color'],
    when: (ctx) => ctx.permissions.has('users.manage'),
    args: yup.object({
      enabled: yup.boolean().label('Show the banner').optional(),
      text: yup.string().label('Banner text').optional(),
      color: yup.string().label('Colour (#RRGGBB)').optional(),
    }) as yup.Schema<BannerArgs>,
    run: async (args, ctx) => {
      if (wantsEditor(args ?? {}, ctx)) {
        siteBannerStore.editing = true;
        return null;
      }
      // The director checks the same rules (MON-114); checking first names the field without a call.
      const value = siteBannerSchema.validateSync({ enabled: true, ...args }, { abortEarly: true, stripUnknown: true });
      const saved = await putSiteBanner(value);
      await ctx.queryClient?.invalidateQueries({ queryKey: siteBannerQueryKey });
      noticeFlash(saved.enabled ? 'The site banner is shown to everyone signed in.' : 'The site banner is hidden.');
      return saved;
    },
  }),
];
