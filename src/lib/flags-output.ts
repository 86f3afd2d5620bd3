import {Flags} from '@oclif/core'
import {OUTPUT_FORMATS} from './output/table.js'

/** The output flags of every list command (see output/table.ts for what each format writes). */
export const listOutputFlags = {
  output: Flags.string({
    description:
      'table (fitted to the terminal; tab-separated when piped), json (same as --json), ndjson (one object per line), csv (for spreadsheets: money as a plain number, its currency in a column of its own)',
    options: [...OUTPUT_FORMATS],
  }),
  columns: Flags.string({
    description: 'comma-separated columns to show, in this order (table and csv), e.g. id,status',
  }),
  wide: Flags.boolean({description: 'show every column at full width instead of fitting the terminal'}),
}
