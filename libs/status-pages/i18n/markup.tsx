/** @jsxRuntime automatic @jsxImportSource preact */
import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { type Translator, textParts, translator } from './catalog.js';

/** The page's translator, given once at the top of a rendered document (default: English, UTC). */
export const LocaleContext = createContext<Translator>(translator());
export const useTranslator = () => useContext(LocaleContext);

/** A translated text whose placeholders are markup (a link, a moment): each filled from `values`. */
export function Words({ text, values }: { text: string; values: Record<string, ComponentChildren> }) {
  return (
    <>
      {textParts(text).map((part) =>
        'literal' in part ? part.literal : (values[part.placeholder] ?? `{${part.placeholder}}`),
      )}
    </>
  );
}

/** A moment as visitors read it: to the minute, in the page's zone and language, the zone named. */
export function When({ iso }: { iso: string }) {
  const t = useTranslator();
  return <time dateTime={iso}>{t.dateTime(iso)}</time>;
}
