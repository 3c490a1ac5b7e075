import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '@/lib/i18n/en.json';

/** Every user-visible string goes through t(); English is bundled, other locales would load lazily. */
const defaultNS = 'translation';
const resources = { en: { translation: en } } as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: typeof defaultNS;
    // Keys are type-checked: a t('typo') fails `npm run typecheck`.
    resources: (typeof resources)['en'];
  }
}

export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources,
  defaultNS,
  interpolation: { escapeValue: false }, // React escapes already
  initAsync: false,
});
