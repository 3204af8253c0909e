import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sub-cent unit prices (README › Decisions › Sub-cent unit prices): a line item's price is stored as
 * exact decimal text in dollars with up to 4 decimals (`"unit_price": "2.375"`) instead of integer cents
 * (`"unit_price_cents": 238`). The amount columns stay integer cents (`bigint`): the subtotal and the
 * taxes are rounded to the cent, only the line prices go below it. `up` rewrites every stored line
 * (`4200` cents → `"42"`, null stays null) in its array order; `down` goes back to cents, rounding a
 * sub-cent price half-up to the cent (the only loss, and only for prices `up` could not have written).
 */
export class QuotesSubCentUnitPrices1796100000000 implements MigrationInterface {
  name = 'QuotesSubCentUnitPrices1796100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE quotes.quotes q
         SET line_items = (
           SELECT jsonb_agg(
                    CASE WHEN item ? 'unit_price_cents'
                      THEN (item - 'unit_price_cents') || jsonb_build_object('unit_price',
                             CASE WHEN jsonb_typeof(item -> 'unit_price_cents') = 'number'
                               THEN to_jsonb(trim_scale((item ->> 'unit_price_cents')::numeric / 100)::text)
                               ELSE 'null'::jsonb END)
                      ELSE item END
                    ORDER BY position)
             FROM jsonb_array_elements(q.line_items) WITH ORDINALITY AS lines(item, position))
       WHERE jsonb_array_length(q.line_items) > 0
         AND EXISTS (SELECT 1 FROM jsonb_array_elements(q.line_items) AS lines(item) WHERE item ? 'unit_price_cents')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE quotes.quotes q
         SET line_items = (
           SELECT jsonb_agg(
                    CASE WHEN item ? 'unit_price'
                      THEN (item - 'unit_price') || jsonb_build_object('unit_price_cents',
                             CASE WHEN jsonb_typeof(item -> 'unit_price') = 'string'
                               THEN to_jsonb(round((item ->> 'unit_price')::numeric * 100)::bigint)
                               ELSE 'null'::jsonb END)
                      ELSE item END
                    ORDER BY position)
             FROM jsonb_array_elements(q.line_items) WITH ORDINALITY AS lines(item, position))
       WHERE jsonb_array_length(q.line_items) > 0
         AND EXISTS (SELECT 1 FROM jsonb_array_elements(q.line_items) AS lines(item) WHERE item ? 'unit_price')`);
  }
}
