import type { Db } from '../db/index';
import type { FilterFieldConfig, FilterOption } from '../../src/api/contracts/filters';

/**
 * Options of one filter field for the typeahead (GET /lookup/{matchObject}/{matchField}): the values
 * holding the typed text (case-insensitive, literal), at most `limit`, from small tables or indexes only.
 */
export async function lookup(db: Db, object: string, field: FilterFieldConfig, q: string, limit: number): Promise<FilterOption[]> {
  const holds = (label: string) => !q || label.toLowerCase().includes(q);
  if (field.options) return field.options.filter((o) => holds(o.label) || holds(o.value)).slice(0, limit);
  const name = field.match_field;
  const rows = async (sql: string, params: unknown[] = []) => db.query<{ value: string; label: string }>(sql, [q, limit, ...params]);
  if (name === 'attack_vector' || name === 'behavior_type' || name === 'stage_of_attack') {
    return rows(
      `select id::text as value, name as label from dimensions where type = $3 and parent_id is not null and strpos(lower(name), $1) > 0 order by position, id limit $2`,
      [name],
    );
  }
  if (name === 'ran_by') {
    return rows(`select n as value, n as label from (select distinct vigil_job_ran_by(id) as n from users union select 'Scheduled Process') x where strpos(lower(n), $1) > 0 order by 1 limit $2`);
  }
  if (name === 'tags') return rows(`select distinct name as value, name as label from tags where strpos(lower(name), $1) > 0 order by 1 limit $2`);
  if (name === 'vid') {
    return rows(`select vid as value, vid || ' ' || name as label from actions where strpos(lower(vid), $1) > 0 or strpos(lower(name), $1) > 0 order by vid limit $2`);
  }
  if (object === 'job' && name === 'name') return rows(`select lname as value, lname as label from job_names where strpos(lname, $1) > 0 order by 1 limit $2`);
  if (name === 'name' || name === 'description' || name === 'assessment_name') {
    return rows(`select distinct name as value, name as label from actions where strpos(lower(name), $1) > 0 order by 1 limit $2`);
  }
  // Number ranges have no list of values to offer.
  return [];
}
