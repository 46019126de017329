import { useState } from 'preact/hooks';

/**
 * Copies `text` to the clipboard when `copy` is called, and says how it went (`said`, for a
 * role="status" element): a browser may refuse, and then the person copies it by hand.
 */
export function useCopy(
  text: string,
  words: { copied?: string; refused?: string } = {},
): { copy: () => void; said: string } {
  const [said, setSaid] = useState('');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setSaid(words.copied ?? 'Copied.'),
      () => setSaid(words.refused ?? 'This browser did not allow copying: select the text and copy it.'),
    );
  };
  return { copy, said };
}
