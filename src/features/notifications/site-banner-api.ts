import { proxy } from 'valtio';
import { http } from '@/api/http';
import type { SiteBanner } from '@/api/contracts/site-banner';

export const siteBannerQueryKey = ['settings', 'site_banner'] as const;
export const getSiteBanner = () => http.get<SiteBanner>('/settings/site_banner.json', { background: true });
export const putSiteBanner = (value: SiteBanner) => http.put<SiteBanner>('/settings/site_banner.json', value);

/** Whether the site banner editor is open (opened by settings.siteBanner, shown by SiteBannerEditor). */
export const siteBannerStore = proxy<{ editing: boolean }>({ editing: false });
