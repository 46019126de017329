import { useState } from 'preact/hooks';
import type { OnCallPerson, Schedule } from '../api/schedules.js';
import { isoToZoned, zonedToIso } from '../maintenance/zoned-time.js';
import { Field } from '../ui/form.js';
import { type ItemEditorProps, OrderControls } from '../ui/ordered-list-editor.js';

/** A layer as the form holds it: wall-clock times in the schedule's zone, as inputs take them. */
export interface LayerDraft {
  key: number;
  participants: number[];
  length: 'daily' | 'weekly' | 'hours';
  hours: string;
  handoff: string;
  startsAt: string;
  endsAt: string;
}

let nextKey = 0;

/**
 * A new layer: weekly, handing over at 09:00, from the last Monday at least a day ago (whatever the
 * zone), so that someone is on call as soon as the schedule is saved: one starting next week left
 * escalations with nobody to reach until then.
 */
export function newLayer(zone: string): LayerDraft {
  // Yesterday's date in the zone, then the Monday on or before it (dates counted in UTC).
  const yesterday = isoToZoned(new Date(Date.now() - 86_400_000).toISOString(), zone).slice(0, 10);
  const monday = new Date(`${yesterday}T12:00:00Z`);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return {
    key: nextKey++,
    participants: [],
    length: 'weekly',
    hours: '12',
    handoff: '09:00',
    startsAt: `${monday.toISOString().slice(0, 10)}T09:00`,
    endsAt: '',
  };
}

export function layerDrafts(schedule: Schedule): LayerDraft[] {
  return schedule.layers.map(({ participants, rotation }) => ({
    key: nextKey++,
    participants,
    length: typeof rotation.length === 'object' ? 'hours' : rotation.length,
    hours: typeof rotation.length === 'object' ? String(rotation.length.hours) : '12',
    handoff: rotation.handoff,
    startsAt: isoToZoned(rotation.startsAt, schedule.timezone),
    endsAt: rotation.endsAt ? isoToZoned(rotation.endsAt, schedule.timezone) : '',
  }));
}

/** The layers as the API takes them (an unreadable time: empty, for the schema to name). */
export function layersBody(drafts: readonly LayerDraft[], zone: string) {
  return drafts.map((draft) => ({
    participants: draft.participants,
    rotation: {
      length: draft.length === 'hours' ? { hours: Number(draft.hours) } : draft.length,
      handoff: draft.handoff,
      startsAt: zonedToIso(draft.startsAt, zone) ?? '',
      endsAt: draft.endsAt ? (zonedToIso(draft.endsAt, zone) ?? '') : null,
    },
  }));
}

/** One layer: its participants in turn order, how long a turn is, when it hands over, when it starts and ends. */
export function LayerFields({
  draft,
  errors,
  place,
  people,
}: ItemEditorProps<LayerDraft> & { people: readonly OnCallPerson[] }) {
  const [adding, setAdding] = useState('');
  const number = place.index + 1;
  const set = (change: Partial<LayerDraft>) => place.onChange({ ...draft, ...change });
  const nameOf = (id: number) => people.find((p) => p.id === id)?.name ?? `Removed user ${id}`;
  const moveTo = (at: number, by: -1 | 1) => {
    const next = [...draft.participants];
    const [id] = next.splice(at, 1);
    if (id !== undefined) next.splice(at + by, 0, id);
    set({ participants: next });
  };
  const addable = people.filter((p) => !draft.participants.includes(p.id));
  return (
    <fieldset class="layer">
      <legend>Layer {number}</legend>
      {place.index > 0 && <p class="hint">Wins over the layers before it while it has someone on call.</p>}
      <p id={`layer-${draft.key}-people`}>
        <strong>Participants, in turn order</strong>
      </p>
      {draft.participants.length === 0 ? (
        <p class="muted">No one yet: this layer has no one on call.</p>
      ) : (
        <ol class="participants" aria-labelledby={`layer-${draft.key}-people`}>
          {draft.participants.map((id, at) => {
            const error = errors[`participants.${at}`];
            return (
              <li key={id}>
                {nameOf(id)}
                <ul class="inline">
                  <li>
                    <button type="button" class="link" disabled={at === 0} onClick={() => moveTo(at, -1)}>
                      Move {nameOf(id)} up
                    </button>
                  </li>
                  <li>
                    <button
                      type="button"
                      class="link"
                      disabled={at === draft.participants.length - 1}
                      onClick={() => moveTo(at, 1)}
                    >
                      Move {nameOf(id)} down
                    </button>
                  </li>
                  <li>
                    <button
                      type="button"
                      class="link"
                      onClick={() => set({ participants: draft.participants.filter((p) => p !== id) })}
                    >
                      Remove {nameOf(id)}
                    </button>
                  </li>
                </ul>
                {error && (
                  <small class="error-text">
                    <span aria-hidden="true">⚠ </span>
                    {error}
                  </small>
                )}
              </li>
            );
          })}
        </ol>
      )}
      {errors.participants && <small class="error-text">⚠ {errors.participants}</small>}
      <div class="row">
        <Field label={`Add someone to layer ${number}`}>
          {(props) => (
            <select {...props} value={adding} onChange={(e) => setAdding(e.currentTarget.value)}>
              <option value="">Choose a person…</option>
              {addable.map((p) => (
                <option key={p.id} value={String(p.id)}>
                  {p.name} ({p.email})
                </option>
              ))}
            </select>
          )}
        </Field>
        <p>
          <button
            type="button"
            disabled={!adding}
            onClick={() => {
              set({ participants: [...draft.participants, Number(adding)] });
              setAdding('');
            }}
          >
            Add to layer {number}
          </button>
        </p>
      </div>
      <div class="row">
        <Field label="Turn length" error={errors['rotation.length']}>
          {(props) => (
            <select
              {...props}
              value={draft.length}
              onChange={(e) => set({ length: e.currentTarget.value as LayerDraft['length'] })}
            >
              <option value="daily">A day</option>
              <option value="weekly">A week</option>
              <option value="hours">A number of hours</option>
            </select>
          )}
        </Field>
        {draft.length === 'hours' && (
          <Field label="Hours a turn" error={errors['rotation.length.hours']}>
            {(props) => (
              <input
                {...props}
                type="number"
                min={1}
                max={720}
                value={draft.hours}
                onInput={(e) => set({ hours: e.currentTarget.value })}
              />
            )}
          </Field>
        )}
        <Field
          label="Handoff time"
          error={errors['rotation.handoff']}
          hint={draft.length === 'hours' ? 'Of the first turn; then every so many hours.' : undefined}
        >
          {(props) => (
            <input
              {...props}
              type="time"
              required
              value={draft.handoff}
              onInput={(e) => set({ handoff: e.currentTarget.value })}
            />
          )}
        </Field>
      </div>
      <div class="row">
        <Field
          label="Starts"
          error={errors['rotation.startsAt']}
          hint="The first turn starts at the first handoff from then on."
        >
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              required
              value={draft.startsAt}
              onInput={(e) => set({ startsAt: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label="Ends (optional)" error={errors['rotation.endsAt']}>
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              value={draft.endsAt}
              onInput={(e) => set({ endsAt: e.currentTarget.value })}
            />
          )}
        </Field>
      </div>
      <OrderControls noun="layer" place={place} />
    </fieldset>
  );
}
