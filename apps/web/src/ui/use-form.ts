import { useState } from 'preact/hooks';
import type { z } from 'zod';
import { validate } from '../../../../libs/contract/validation.js';
import { fieldErrors, type Problem, problemText } from '../api/client.js';

type Control = string | boolean | string[];
type TextKey<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

export interface FormOptions<V, Body> {
  /** The body the API is sent, from the controls' values. */
  body: (values: V) => Body;
  /**
   * The API's own schema of that body (a pure module of libs/, never one that pulls server code):
   * checked on submit and when a control is left, with the API's words, at the same field paths.
   */
  schema?: z.ZodType | undefined;
  /**
   * Which of the API's error paths the form shows at a control (`expected.0` under `expected`):
   * the others are named in the message above the form, so no refusal goes unseen.
   * @defaultValue every path is taken as shown, and the message is the problem's own words
   */
  shows?: ((path: string, values: V) => boolean) | undefined;
}

/** A text control's props as `bind` gives them. */
export type Bound = { value: string; onInput: (event: Event) => void; onBlur: (event: FocusEvent) => void };

export interface Form<V, Body> {
  values: V;
  /** Errors by the body's field path (`name`, `config.url`): the schema's, then the API's. */
  errors: Record<string, string>;
  /** What to show for the whole form (the API's problem, or that fields need a look). */
  message: string | null;
  /** The API took the last submit, and nothing changed since. */
  saved: boolean;
  set<K extends keyof V>(key: K, value: V[K]): void;
  /** A text control (input, textarea, select) bound to `key`; `path` names its field in the body. */
  bind(key: TextKey<V>, path?: string): Bound;
  /** The body to send, or null (and the schema's errors shown at their fields) when it would be refused. */
  check(): Body | null;
  /** Reads the API's answer: true when it took the write, else its problem is shown at the fields it names. */
  answered(answer: { error?: unknown; response: Response }): boolean;
  reset(values: V): void;
}

/**
 * A form's controls, their errors and its message, in one place instead of a state and an
 * `onInput` setter per control. Typing in a control takes its error away; leaving it shows the
 * schema's error for it again.
 */
export function useForm<V extends Record<string, Control>, Body>(
  initial: V | (() => V),
  { body, schema, shows }: FormOptions<V, Body>,
): Form<V, Body> {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  const schemaErrors = (of: V): Record<string, string> => {
    if (!schema) return {};
    const result = validate(schema, body(of));
    return result.success ? {} : fieldErrors({ errors: result.errors } as Problem);
  };
  const set = <K extends keyof V>(key: K, value: V[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setSaved(false);
    setErrors(({ [key as string]: _, ...rest }) => rest);
  };

  return {
    values,
    errors,
    message,
    saved,
    set,
    bind: (key, path = key) => ({
      value: values[key] as string,
      onInput: (event) => set(key, (event.currentTarget as HTMLInputElement).value as V[typeof key]),
      onBlur: (event) => {
        // Left for a button (submit, cancel): no error now, as it would move the button away
        // from under the pointer before the click lands; submitting checks every field anyway.
        if ((event.relatedTarget as Element | null)?.closest('button')) return;
        const found = schemaErrors(values)[path];
        if (found) setErrors((current) => ({ ...current, [path]: found }));
      },
    }),
    check: () => {
      const found = schemaErrors(values);
      setErrors(found);
      setSaved(false);
      if (Object.keys(found).length > 0) {
        setMessage('Some fields need a look: see the messages at them.');
        return null;
      }
      setMessage(null);
      return body(values);
    },
    answered: ({ error, response }) => {
      if (response.ok) {
        setErrors({});
        setMessage(null);
        setSaved(true);
        return true;
      }
      const problem = error as Problem | undefined;
      setErrors(fieldErrors(problem));
      const unseen = shows ? (problem?.errors ?? []).filter((e) => !shows(e.path, values)) : [];
      setMessage(
        unseen.length > 0
          ? unseen.map((e) => `${e.path}: ${e.message}`).join('; ')
          : shows && problem?.errors?.length
            ? 'Some values were refused: see the marked fields.'
            : problemText(problem),
      );
      return false;
    },
    reset: (next) => {
      setValues(next);
      setSaved(false);
      setErrors({});
      setMessage(null);
    },
  };
}
