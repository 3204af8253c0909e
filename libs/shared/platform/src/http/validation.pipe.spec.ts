import { ArgumentMetadata } from '@nestjs/common';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { DomainError, ValidationFailedError } from '@leadflow/shared-kernel';
import { Nullable } from './nullable';
import { createValidationPipe, toFieldViolations } from './validation.pipe';

class NoteDto {
  @IsString()
  body!: string;

  @IsOptional()
  @IsBoolean()
  pinned?: boolean;

  @IsString()
  @Nullable()
  title?: string | null;

  @IsOptional()
  @IsString({ each: true })
  tags?: string[];
}

class NotebookDto {
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => NoteDto)
  notes!: NoteDto[];

  @Nullable()
  @ValidateNested()
  @Type(() => NoteDto)
  cover?: NoteDto | null;
}

class LineDto {
  @IsString()
  label!: string;

  @IsInt()
  @Min(1)
  quantity!: number;
}

class ContactDto {
  @IsString()
  @MaxLength(10)
  first_name!: string;

  @IsOptional()
  @IsEmail()
  email?: string;

  @IsOptional()
  @IsUUID()
  system_id?: string;

  @IsOptional()
  @IsISO8601({ strict: true })
  due_at?: string;

  @IsOptional()
  @IsIn(['fr', 'en'])
  language?: string;

  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @IsOptional()
  @Matches(/^[a-z]+$/, { context: { reason: 'reserved_prefix' } })
  slug?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  @Type(() => LineDto)
  lines?: LineDto[];
}

/** Maps class-validator failures to 400 `validation_error` with `details` [{ field, reason, message }]. */
describe('validation pipe', () => {
  const pipe = createValidationPipe();
  const body: ArgumentMetadata = { type: 'body', metatype: ContactDto };

  async function violations(value: unknown, metadata: ArgumentMetadata = body): Promise<{ field: string; reason: string }[]> {
    try {
      await pipe.transform(value, metadata);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationFailedError);
      expect((error as DomainError).code).toBe('validation_error');
      return ((error as DomainError).details as { field: string; reason: string }[]).map(({ field, reason }) => ({ field, reason }));
    }
    throw new Error('the pipe accepted the value');
  }

  it('returns a DTO instance for a valid body', async () => {
    const value = await pipe.transform({ first_name: 'Julie', lines: [{ label: 'a', quantity: 2 }] }, body);
    expect(value).toBeInstanceOf(ContactDto);
    expect((value as ContactDto).lines?.[0]).toBeInstanceOf(LineDto);
  });

  it.each([
    ['unknown field', { first_name: 'J', x: 1 }, [{ field: 'x', reason: 'unknown_field' }]],
    ['absent required field', {}, [{ field: 'first_name', reason: 'required' }]],
    ['wrong type', { first_name: 1 }, [{ field: 'first_name', reason: 'invalid_type' }]],
    ['too long', { first_name: 'x'.repeat(11) }, [{ field: 'first_name', reason: 'too_long' }]],
    ['email', { first_name: 'J', email: 'nope' }, [{ field: 'email', reason: 'invalid_format' }]],
    ['uuid', { first_name: 'J', system_id: '42' }, [{ field: 'system_id', reason: 'invalid_format' }]],
    ['datetime', { first_name: 'J', due_at: 'tomorrow' }, [{ field: 'due_at', reason: 'invalid_datetime' }]],
    ['enum', { first_name: 'J', language: 'de' }, [{ field: 'language', reason: 'invalid_value' }]],
    ['boolean', { first_name: 'J', active: 'yes' }, [{ field: 'active', reason: 'invalid_type' }]],
    ['reason named by the constraint context', { first_name: 'J', slug: 'A1' }, [{ field: 'slug', reason: 'reserved_prefix' }]],
    ['too many items', { first_name: 'J', lines: [{ label: 'a', quantity: 1 }, { label: 'b', quantity: 1 }, { label: 'c', quantity: 1 }] }, [{ field: 'lines', reason: 'too_many' }]],
    [
      'nested items, dotted paths',
      { first_name: 'J', lines: [{ label: 'a', quantity: 0 }, { quantity: 1 }] },
      [
        { field: 'lines[0].quantity', reason: 'out_of_range' },
        { field: 'lines[1].label', reason: 'required' },
      ],
    ],
    ['unknown nested field', { first_name: 'J', lines: [{ label: 'a', quantity: 1, price: 3 }] }, [{ field: 'lines[0].price', reason: 'unknown_field' }]],
  ])('%s', async (_label, value, expected) => {
    expect(await violations(value)).toEqual(expected);
  });

  it('reports every failing field', async () => {
    expect(await violations({ email: 'nope', zz: true })).toEqual(
      expect.arrayContaining([
        { field: 'first_name', reason: 'required' },
        { field: 'email', reason: 'invalid_format' },
        { field: 'zz', reason: 'unknown_field' },
      ]),
    );
  });

  it('validates a missing body as {} (each required field reported)', async () => {
    expect(await violations(undefined)).toEqual([{ field: 'first_name', reason: 'required' }]);
  });

  it.each([[[{ first_name: 'J' }]], ['J'], [3], [true], [null]])('refuses a body that is not an object (%j) as a whole', async (value) => {
    expect(await violations(value)).toEqual([{ field: '', reason: 'invalid_type' }]);
  });

  it('never puts the failing value in the message details', async () => {
    try {
      await pipe.transform({ first_name: 'SECRET-VALUE-TOO-LONG' }, body);
    } catch (error) {
      expect(JSON.stringify((error as DomainError).details)).not.toContain('SECRET');
    }
  });

  it('leaves untyped bodies and primitives alone', async () => {
    expect(await pipe.transform([1, 2], { type: 'body', metatype: Object })).toEqual([1, 2]);
    expect(await pipe.transform('abc', { type: 'param', metatype: String, data: 'id' })).toBe('abc');
  });

  it('toFieldViolations falls back to invalid_value for an unmapped constraint', () => {
    expect(toFieldViolations([{ property: 'x', value: 1, constraints: { somethingNew: 'bad' }, children: [] }])).toEqual([
      { field: 'x', reason: 'invalid_value', message: 'bad' },
    ]);
  });

  describe('null means what the contract says (@Nullable)', () => {
    const notes: ArgumentMetadata = { type: 'body', metatype: NotebookDto };

    it('a nullable member accepts null and keeps it (the handler clears the value)', async () => {
      const value = (await pipe.transform({ notes: [{ body: 'a', title: null }], cover: null }, notes)) as NotebookDto;
      expect(value.notes[0].title).toBeNull();
      expect(value.cover).toBeNull();
    });

    it.each([
      ['an optional member sent null is invalid_type, never its default', { notes: [{ body: 'a', pinned: null }] }, [{ field: 'notes[0].pinned', reason: 'invalid_type' }]],
      ['a required member sent null is required', { notes: [{ body: null }] }, [{ field: 'notes[0].body', reason: 'required' }]],
      ['a null element of a list with per-element rules is invalid_type at its index', { notes: [{ body: 'a', tags: ['x', null] }] }, [{ field: 'notes[0].tags[1]', reason: 'invalid_type' }]],
      [
        'null violations are reported with the others, and a null is reported as null, not by the rule it then fails',
        { notes: [{ body: 1, pinned: null }] },
        [
          { field: 'notes[0].body', reason: 'invalid_type' },
          { field: 'notes[0].pinned', reason: 'invalid_type' },
        ],
      ],
    ])('%s', async (_label, value, expected) => {
      expect(await violations(value, notes)).toEqual(expected);
    });
  });
});

