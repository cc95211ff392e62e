import { sql } from 'drizzle-orm';
import type { Database, Db } from './database';
import { queryRows } from './rows';

/**
 * The tables holding the service's data, each after the tables its foreign keys name, so that
 * rows can be written in this order. schema_migrations is left out: each database records the
 * migrations it applied itself.
 */
export async function dataTables(db: Db): Promise<string[]> {
  const rows = await queryRows<{ name: string; references: string[] }>(
    db,
    sql`select c.relname::text as name,
          coalesce(array_agg(distinct r.relname::text) filter (where r.relname <> c.relname), '{}') as references
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
        left join pg_constraint f on f.conrelid = c.oid and f.contype = 'f'
        left join pg_class r on r.oid = f.confrelid
        where n.nspname = 'public' and c.relkind = 'r' and c.relname <> 'schema_migrations'
        group by c.relname
        order by c.relname`,
  );
  const ordered: string[] = [];
  const pending = new Map(rows.map((row) => [row.name, row.references]));
  while (pending.size > 0) {
    const ready = [...pending].filter(([, references]) =>
      references.every((reference) => !pending.has(reference)),
    );
    if (ready.length === 0)
      throw new Error(`foreign keys form a cycle among ${[...pending.keys()]}`);
    for (const [name] of ready) {
      ordered.push(name);
      pending.delete(name);
    }
  }
  return ordered;
}

/** Rows per data table. */
export async function countRows(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await dataTables(db)) {
    const [row] = await queryRows<{ count: number }>(
      db,
      sql`select count(*)::int as count from ${sql.identifier(table)}`,
    );
    counts[table] = row!.count;
  }
  return counts;
}

const ROWS_PER_BATCH = 2000;

/**
 * Copies every data table's rows from `source` (which nobody writes meanwhile) into the
 * empty, migrated `target`, in one transaction: all of it or nothing. Rows travel as JSON
 * and are read back into the target's own column types. The tables' own triggers stay off
 * while their rows arrive (they would derive again what the rows already hold: search grams,
 * list versions); foreign keys are checked, which the table order satisfies. Answers the
 * rows copied per table.
 */
export async function copyTables(
  source: Database,
  target: Database,
): Promise<Record<string, number>> {
  const tables = await dataTables(source.db);
  const copied: Record<string, number> = {};
  await target.db.transaction(async (tx) => {
    for (const table of tables) {
      const name = sql.identifier(table);
      await tx.execute(sql`alter table ${name} disable trigger user`);
      copied[table] = 0;
      for (;;) {
        const [batch] = await queryRows<{ rows: string | null }>(
          source.db,
          sql`select json_agg(t)::text as rows
              from (select * from ${name} order by ctid limit ${ROWS_PER_BATCH} offset ${copied[table]}) t`,
        );
        if (!batch?.rows) break;
        const inserted = await queryRows<{ one: number }>(
          tx,
          sql`insert into ${name} select * from json_populate_recordset(null::${name}, ${batch.rows}::json) returning 1 as one`,
        );
        copied[table] += inserted.length;
      }
      await tx.execute(sql`alter table ${name} enable trigger user`);
    }
    // Serial columns go on from the highest copied value rather than from 1.
    const serials = await queryRows<{ table: string; column: string }>(
      tx,
      sql`select table_name::text as table, column_name::text as column
          from information_schema.columns
          where table_schema = 'public' and column_default like 'nextval(%'`,
    );
    for (const { table, column } of serials) {
      await tx.execute(
        sql`select setval(pg_get_serial_sequence(${table}, ${column}),
              coalesce((select max(${sql.identifier(column)}) from ${sql.identifier(table)}), 0) + 1, false)`,
      );
    }
  });
  return copied;
}
