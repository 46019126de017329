export {
  CATALOG,
  DEFAULT_LOCALE,
  DEFAULT_PAGE_LANGUAGE,
  DEFAULT_PAGE_TIMEZONE,
  fill,
  isTimeZone,
  type MessageKey,
  type Messages,
  PAGE_LANGUAGES,
  type PageLanguage,
  type PageLocale,
  pageLanguage,
  placeholdersOf,
  type Translator,
  translator,
} from './catalog.js';
export { LocaleContext, useTranslator, When, Words } from './markup.js';
