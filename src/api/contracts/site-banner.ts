/**
 * The site banner: a warning banner every signed-in user sees at the top of the workbench (text and
 * colour set by an administrator), with the colour input's rules of monitors-actors-reporting.md
 * section 5 "Other widgets" (MON-114). The director validates with the same schema.
 */
import * as yup from 'yup';

export const COLOR_FORMAT_ERROR = 'Invalid format. Use example: #FFFFFF';
export const COLOR_REQUIRED_ERROR = 'Please select a color';
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
export const SITE_BANNER_TEXT_MAX = 500;

/** MON-114: the colour input's message for a value, or null when it is a #RRGGBB colour. */
export function colorError(value: string | null | undefined): string | null {
  const v = (value ?? '').trim();
  if (!v) return COLOR_REQUIRED_ERROR;
  return HEX_COLOR.test(v) ? null : COLOR_FORMAT_ERROR;
}

export const siteBannerSchema = yup
  .object({
    enabled: yup.boolean().required('enabled is required').label('Show the banner'),
    text: yup
      .string()
      .trim()
      .max(SITE_BANNER_TEXT_MAX, `The banner text is at most ${SITE_BANNER_TEXT_MAX} characters`)
      .default('')
      .label('Banner text')
      .when('enabled', { is: true, then: (s) => s.required('A shown banner needs a text') }),
    color: yup.string().trim().required(COLOR_REQUIRED_ERROR).matches(HEX_COLOR, COLOR_FORMAT_ERROR).label('Colour (#RRGGBB)'),
  })
  .noUnknown('Unknown field: ${unknown}');

export type SiteBanner = yup.InferType<typeof siteBannerSchema>;

export const DEFAULT_SITE_BANNER: SiteBanner = { enabled: false, text: '', color: '#B45309' };
