import { useState } from 'preact/hooks';
import { createScheduleBody, patchScheduleBody } from '../../../../libs/oncall/schedule.schema.js';
import { api } from '../api/client.js';
import { write } from '../api/query.js';
import { type Schedule, scheduleKeys, useOnCallPeople } from '../api/schedules.js';
import { browserZone, knownZones } from '../maintenance/zoned-time.js';
import { Field, FormError, Notice } from '../ui/form.js';
import { OrderedListEditor } from '../ui/ordered-list-editor.js';
import { useForm } from '../ui/use-form.js';
import { errorsUnder } from '../websites/api-flow-drafts.js';
import { type LayerDraft, LayerFields, layerDrafts, layersBody, newLayer } from './layer-fields.js';

/**
 * A schedule's name, time zone and layers (each its participants in turn order, turn length,
 * handoff time, start and end). The API names what it refuses at `layers.<i>.<field>`, shown there.
 */
export function ScheduleForm({
  schedule,
  onSaved,
}: {
  schedule: Schedule | null;
  onSaved: (schedule: Schedule) => void;
}) {
  const people = useOnCallPeople();
  const initialZone = schedule?.timezone ?? browserZone();
  const [layers, setLayers] = useState<LayerDraft[]>(() =>
    schedule ? layerDrafts(schedule) : [newLayer(initialZone)],
  );
  const form = useForm(
    { name: schedule?.name ?? '', timezone: initialZone },
    {
      schema: schedule ? patchScheduleBody : createScheduleBody,
      body: (v) => ({ name: v.name, timezone: v.timezone, layers: layersBody(layers, v.timezone) }),
    },
  );
  const { values, errors } = form;
  const zones = knownZones();

  const save = async (event: Event) => {
    event.preventDefault();
    const body = form.check();
    if (!body) return;
    const answer = schedule
      ? await write(
          api.PATCH('/api/schedules/{id}', { params: { path: { id: schedule.id } }, body }),
          scheduleKeys.all,
        )
      : await write(api.POST('/api/schedules', { body }), scheduleKeys.all);
    if (form.answered(answer) && answer.data) onSaved(answer.data);
  };

  return (
    <form onSubmit={save} noValidate aria-label={schedule ? 'Schedule settings' : 'New schedule'}>
      {form.saved && schedule && <Notice>Saved.</Notice>}
      <FormError message={form.message ?? people.error} />
      <Field label="Name" error={errors.name}>
        {(props) => <input {...props} required {...form.bind('name')} />}
      </Field>
      <Field
        label="Time zone"
        error={errors.timezone}
        hint="Handoffs happen at their time on this clock, across daylight-saving changes."
      >
        {(props) => (
          <select {...props} {...form.bind('timezone')}>
            {(zones.includes(values.timezone) ? zones : [values.timezone, ...zones]).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        )}
      </Field>
      <h3>Layers</h3>
      <p class="hint">
        Each layer hands the pager from one participant to the next. Where two layers have someone on call,
        the later one wins; an override wins over every layer.
      </p>
      {errors.layers && <p class="error-text">⚠ {errors.layers}</p>}
      <OrderedListEditor
        items={layers}
        newItem={() => newLayer(values.timezone)}
        addLabel="Add a layer"
        onChange={setLayers}
      >
        {(draft, place) => (
          <LayerFields
            draft={draft}
            errors={errorsUnder(errors, `layers.${place.index}.`)}
            place={place}
            people={people.data ?? []}
          />
        )}
      </OrderedListEditor>
      <div class="actions">
        <button type="submit" class="primary">
          {schedule ? 'Save the schedule' : 'Create the schedule'}
        </button>
      </div>
    </form>
  );
}
