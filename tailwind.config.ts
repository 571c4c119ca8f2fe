import type { Config } from 'tailwindcss';

// Tailwind 4 reads this through `@config` in src/styles.css. Colours are CSS variables so that the
// dark and light operator themes swap with one class on <html>.
export default {
  content: ['./index.html', './src/**/*.{ts,tsx}'],
  darkMode: 'class',
  theme: {
    extend: {
      colors: {
        surface: 'rgb(var(--surface) / <alpha-value>)',
        panel: 'rgb(var(--panel) / <alpha-value>)',
        raised: 'rgb(var(--raised) / <alpha-value>)',
        line: 'rgb(var(--line) / <alpha-value>)',
        ink: 'rgb(var(--ink) / <alpha-value>)',
        muted: 'rgb(var(--muted) / <alpha-value>)',
        accent: 'rgb(var(--accent) / <alpha-value>)',
        pass: '#00ffc0',
        fail: '#d32223',
      },
      fontSize: { '2xs': ['0.6875rem', '1rem'] },
    },
  },
} satisfies Config;
