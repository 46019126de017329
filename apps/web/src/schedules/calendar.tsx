import { useState } from 'preact/hooks';
import { type Schedule, useShifts } from '../api/schedules.js';
import { FormError } from '../ui/form.js';
import {
  type CalendarView,
  type DayEntry,
  dayLabel,
  entriesByDay,
  moved,
  spanInstants,
  spanOf,
  todayIn,
} from './calendar-days.js';

/** Each person's colour in the calendar, by their place among the schedule's people. */
const COLOURS = 6;

/** Who is on call, a week (each day's shifts with their times) or a month (each day's people) at a time. */
export function ScheduleCalendar({ schedule }: { schedule: Schedule }) {
  const zone = schedule.timezone;
  const today = todayIn(zone);
  const [view, setView] = useState<CalendarView>('week');
  const [anchor, setAnchor] = useState(today);
  const span = spanOf(view, anchor);
  const { from, to } = spanInstants(zone, span);
  const shifts = useShifts(schedule.id, from, to);
  const days = entriesByDay(zone, span, shifts.data ?? []);
  const colourOf = (userId: number) => {
    const index = schedule.people.findIndex((person) => person.id === userId);
    return `person-${(index < 0 ? userId : index) % COLOURS}`;
  };
  const unit = view === 'week' ? 'week' : 'month';

  return (
    <section aria-labelledby="calendar-heading" class="oncall-calendar">
      <h2 id="calendar-heading">Calendar</h2>
      <p class="muted">Days and times in {zone}. Overrides are marked ⇄.</p>
      <div class="toolbar">
        <button type="button" aria-pressed={view === 'week'} onClick={() => setView('week')}>
          Week
        </button>
        <button type="button" aria-pressed={view === 'month'} onClick={() => setView('month')}>
          Month
        </button>
        <button type="button" onClick={() => setAnchor(moved(view, anchor, -1))}>
          ← Previous {unit}
        </button>
        <button type="button" onClick={() => setAnchor(today)}>
          Today
        </button>
        <button type="button" onClick={() => setAnchor(moved(view, anchor, 1))}>
          Next {unit} →
        </button>
      </div>
      <h3 aria-live="polite">{span.title}</h3>
      <FormError message={shifts.error} />
      {shifts.data === undefined && !shifts.error && <p role="status">Loading…</p>}
      {shifts.data && view === 'week' && (
        <ol class="calendar-week">
          {[...days].map(([day, entries]) => (
            <li key={day} aria-current={day === today ? 'date' : undefined}>
              <strong class="day">{dayLabel(day)}</strong>
              {entries.length === 0 ? (
                <span class="muted">No one on call</span>
              ) : (
                <ul>
                  {entries.map((entry) => (
                    <li key={`${entry.userId}-${entry.when}`} class={`chip ${colourOf(entry.userId)}`}>
                      <Entry entry={entry} />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      )}
      {shifts.data && view === 'month' && (
        <>
          <MonthGrid days={days} span={span} today={today} colourOf={colourOf} />
          <Legend days={days} colourOf={colourOf} />
        </>
      )}
    </section>
  );
}

/** "Bob Baker" → "BB": what a day of a month shows of a name on a phone (the legend names them). */
const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase())
    .join('');

/** Everyone the month shows, in their colours, by name. */
function Legend({ days, colourOf }: { days: Map<number, DayEntry[]>; colourOf: (userId: number) => string }) {
  const names = new Map<number, string>();
  for (const entries of days.values()) for (const entry of entries) names.set(entry.userId, entry.name);
  if (names.size === 0) return <p class="muted">No one is on call this month.</p>;
  return (
    <ul class="calendar-legend" aria-label="People in this month">
      {[...names].map(([userId, name]) => (
        <li key={userId} class={`chip ${colourOf(userId)}`}>
          {name} <span aria-hidden="true">({initialsOf(name)})</span>
        </li>
      ))}
    </ul>
  );
}

function Entry({ entry }: { entry: DayEntry }) {
  return (
    <>
      {entry.override && <span aria-hidden="true">⇄ </span>}
      <span class="who">{entry.name}</span> <span class="when">{entry.when}</span>
      {entry.override && <span class="visually-hidden"> (override)</span>}
    </>
  );
}

/** A month as a grid of weeks: each day's people (the times are in the week view and the titles). */
function MonthGrid({
  days,
  span,
  today,
  colourOf,
}: {
  days: Map<number, DayEntry[]>;
  span: ReturnType<typeof spanOf>;
  today: number;
  colourOf: (userId: number) => string;
}) {
  const weeks: number[][] = [];
  for (let day = span.first; day < span.end; day += 7)
    weeks.push(Array.from({ length: 7 }, (_, i) => day + i));
  const inMonth = (day: number) => !span.month || (day >= span.month.first && day < span.month.end);
  return (
    <table class="calendar-month">
      <caption class="visually-hidden">Who is on call each day of {span.title}</caption>
      <thead>
        <tr>
          {weeks[0]?.map((day) => (
            <th key={day} scope="col">
              <abbr title={dayLabel(day, { weekday: 'long' })}>{dayLabel(day, { weekday: 'narrow' })}</abbr>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]}>
            {week.map((day) => {
              // One line per person: their times that day joined (a split day shows both).
              const people = new Map<number, DayEntry[]>();
              for (const entry of days.get(day) ?? [])
                people.set(entry.userId, [...(people.get(entry.userId) ?? []), entry]);
              return (
                <td
                  key={day}
                  class={inMonth(day) ? undefined : 'outside'}
                  aria-current={day === today ? 'date' : undefined}
                >
                  <span class="date" aria-hidden="true">
                    {dayLabel(day, { day: 'numeric' })}
                  </span>
                  <span class="visually-hidden">
                    {dayLabel(day, { weekday: 'long', day: 'numeric', month: 'long' })}
                  </span>
                  <ul>
                    {[...people].map(([userId, entries]) => {
                      const override = entries.some((entry) => entry.override);
                      const times = entries
                        .map((entry) => `${entry.when}${entry.override ? ' (override)' : ''}`)
                        .join(', ');
                      return (
                        <li
                          key={userId}
                          class={`chip ${colourOf(userId)}`}
                          title={`${entries[0]?.name}: ${times}`}
                        >
                          {override && <span aria-hidden="true">⇄ </span>}
                          <span class="who">{entries[0]?.name}</span>
                          <span class="initials" aria-hidden="true">
                            {initialsOf(entries[0]?.name ?? '')}
                          </span>
                          <span class="visually-hidden">: {times}</span>
                        </li>
                      );
                    })}
                  </ul>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
