/**
 * The file adapter's factory: one directory of JSON-lines segments per stream, under one root
 * (`<DATA_DIR>/activities/<tenant>/` in the companion). It takes no lock of its own: the composition
 * root opens it on the data directory the document store has locked against a second server.
 */
import { join } from 'node:path';
import { assertStreamName, type EventLog, type EventLogOptions, type EventLogs } from './event-log.js';
import { FileEventLog } from './file-event-log.js';

export interface FileEventLogsOptions {
  /** The directory holding one sub-directory per stream. */
  directory: string;
  /** A segment is closed and a new one started once it would pass this size. */
  segmentBytes: number;
}

export class FileEventLogs implements EventLogs {
  private readonly options: FileEventLogsOptions;
  /** Logs opened and not yet closed, by stream. */
  private readonly logs = new Map<string, Promise<FileEventLog>>();
  private closed = false;

  constructor(options: FileEventLogsOptions) {
    this.options = options;
  }

  open(stream: string, options: EventLogOptions): Promise<EventLog> {
    if (this.closed) return Promise.reject(new Error('The event logs are closed.'));
    try {
      assertStreamName(stream);
    } catch (error) {
      return Promise.reject(error);
    }
    let log = this.logs.get(stream);
    if (log === undefined) {
      const opening = FileEventLog.open({
        directory: join(this.options.directory, stream),
        segmentBytes: this.options.segmentBytes,
        timeField: options.timeField,
        onClose: () => {
          if (this.logs.get(stream) === opening) this.logs.delete(stream);
        },
      });
      log = opening;
      this.logs.set(stream, log);
      log.catch(() => this.logs.delete(stream));
    }
    return log;
  }

  async close(): Promise<void> {
    this.closed = true;
    const logs = await Promise.allSettled([...this.logs.values()]);
    this.logs.clear();
    for (const log of logs) if (log.status === 'fulfilled') await log.value.close();
  }
}
