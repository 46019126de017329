import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

/**
 * A labelled control with its hint and the error for it, the form's schema's or the API's
 * (announced, and tied by aria-describedby). The error goes once the person changes the control,
 * and shows again (if still true) when the form is next submitted or the error changes.
 */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: ComponentChildren;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => JSX.Element;
}) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [edited, setEdited] = useState(false);
  // A new error (the schema's, when the control is left) shows even after typing.
  useEffect(() => setEdited(false), [error]);
  useEffect(() => {
    const form = box.current?.closest('form');
    const submitted = () => setEdited(false);
    form?.addEventListener('submit', submitted);
    return () => form?.removeEventListener('submit', submitted);
  }, []);
  const shown = edited ? undefined : error;
  const described = [hint ? `${id}-hint` : '', shown ? `${id}-error` : ''].filter(Boolean).join(' ');
  const changed = () => setEdited(true);
  return (
    <div ref={box} class={shown ? 'field invalid' : 'field'} onInput={changed} onChange={changed}>
      <label for={id}>{label}</label>
      {children({
        id,
        ...(described ? { 'aria-describedby': described } : {}),
        ...(shown ? { 'aria-invalid': true } : {}),
      })}
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {shown && (
        <small id={`${id}-error`} class="error-text">
          <span aria-hidden="true">⚠ </span>
          {shown}
        </small>
      )}
    </div>
  );
}

/** A checkbox with its label after it. */
export function Check({
  label,
  checked,
  onChange,
  error,
  disabled,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
  disabled?: boolean;
  /** What checking it does, under its label. */
  hint?: string | undefined;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={error ? 'field check invalid' : 'field check'}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={described || undefined}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
      {hint && (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={`${id}-error`} class="error-text">
          <span aria-hidden="true">⚠ </span>
          {error}
        </small>
      )}
    </div>
  );
}

/** A message for the whole form (role=alert: read out when it appears). */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p class="banner error" role="alert">
      <span aria-hidden="true">⚠ </span>
      {message}
    </p>
  );
}

/** A form's buttons: submit it, or leave it unchanged. */
export function FormActions({ submit, onCancel }: { submit: string; onCancel: () => void }) {
  return (
    <div class="actions">
      <button type="submit" class="primary">
        {submit}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** A screen whose data has not come: what went wrong, else that it is on its way. */
export function Loading({ error }: { error: string | null | undefined }) {
  return (
    <section>
      <FormError message={error} />
      {!error && <p role="status">Loading…</p>}
    </section>
  );
}

export function Notice({ children }: { children: ComponentChildren }) {
  return (
    <p class="banner ok" role="status">
      <span aria-hidden="true">✓ </span>
      {children}
    </p>
  );
}
