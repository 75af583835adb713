/** Answers of the admin API: the indexer's plugins and schedulers. */
import { integer, nullable, number, object, string, type Schema } from "./shapes";

const typeStats = object({ count: integer, totalExecutions: integer, totalErrors: integer }, ["count", "totalExecutions", "totalErrors"]);
const isoTime = nullable({ type: "string", format: "date-time" });

export const ADMIN_SCHEMAS = {
  PluginOverview: object({
    totalPlugins: integer,
    activePlugins: integer,
    filters: typeStats,
    preActions: typeStats,
    postActions: typeStats,
    eventHandlers: typeStats,
    schedulers: typeStats,
    initPlugins: typeStats,
  }),
  PluginList: object({
    pluginType: string,
    totalPlugins: integer,
    totalExecutions: integer,
    totalErrors: integer,
    plugins: {
      type: "array",
      items: object({
        name: string,
        language: string,
        executionCount: integer,
        successCount: integer,
        errorCount: integer,
        lastExecutionTime: isoTime,
        lastDuration: nullable(number),
        itemsProcessed: nullable(integer),
      }),
    },
  }),
  PluginDetail: object({
    name: string,
    type: string,
    language: string,
    executionMetrics: object({
      totalExecutions: integer,
      successfulExecutions: integer,
      failedExecutions: integer,
      successRate: number,
      lastExecutionTime: isoTime,
    }),
    itemMetrics: object({ totalItemsProcessed: integer }),
    durationMetrics: object({
      lastDuration: nullable(number),
      minDuration: nullable(number),
      maxDuration: nullable(number),
      averageDuration: nullable(number),
    }),
  }),
  SchedulerList: object({
    totalSchedulers: integer,
    runningSchedulers: integer,
    failedSchedulers: integer,
    schedulers: {
      type: "array",
      items: object({
        name: string,
        status: string,
        scheduleType: string,
        scheduleValue: string,
        totalExecutions: integer,
        lastExecutionTime: nullable(integer),
      }),
    },
  }),
  SchedulerStatus: object({
    name: string,
    status: string,
    scheduleType: string,
    scheduleValue: string,
    statistics: object(
      {
        totalExecutions: integer,
        successfulExecutions: integer,
        failedExecutions: integer,
        lastExecutionTime: nullable(integer),
        lastExecutionDuration: nullable(number),
        averageExecutionDuration: nullable(number),
        lastError: nullable(string),
      },
      ["totalExecutions", "successfulExecutions", "failedExecutions"],
    ),
  }),
} satisfies Record<string, Schema>;
