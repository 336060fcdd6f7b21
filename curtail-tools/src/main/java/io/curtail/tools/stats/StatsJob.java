package io.curtail.tools.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * The statistics analyzer's grouping as a MapReduce job, for logs the size of a cluster's (the
 * paper's analysis was one): maps key each record by cohort and direction, and each reduce makes
 * one group's row of the analyzer's table ({@link CohortTable#row}), from all of that group's
 * block times (exact percentiles: a reduce holds one group's times, 8 bytes a block). Lines that
 * are no record are counted and skipped, as a log cut short by a crash may end in one; the
 * local analyzer names the first instead.
 */
public final class StatsJob {
  /** Job counters. */
  public enum Counter { RECORDS, NOT_RECORDS }

  private StatsJob() {
  }

  /** Keys each record by its group; counts and skips a line that is no record. */
  public static final class GroupMapper extends Mapper<LongWritable, Text, Text, Text> {
    private final ObjectMapper json = new ObjectMapper();
    private final Text key = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context ctx)
        throws IOException, InterruptedException {
      if (line.getLength() == 0) {
        return;
      }
      JsonNode r;
      try {
        r = json.readTree(line.toString());
        key.set(CohortTable.groupKey(r));
      } catch (IOException | RuntimeException notARecord) {
        ctx.getCounter(Counter.NOT_RECORDS).increment(1);
        return;
      }
      ctx.getCounter(Counter.RECORDS).increment(1);
      ctx.write(key, line);
    }
  }

  /** One group's row of the table. */
  public static final class RowReducer extends Reducer<Text, Text, NullWritable, Text> {
    private final ObjectMapper json = new ObjectMapper();

    @Override
    protected void reduce(Text key, Iterable<Text> records, Context ctx)
        throws IOException, InterruptedException {
      CohortTable.Group g = new CohortTable.Group();
      for (Text r : records) {
        g.add(json.readTree(r.toString()));
      }
      ctx.write(NullWritable.get(), new Text(CohortTable.row(key.toString(), g)));
    }
  }

  /**
   * Runs the job over the {@code *.jsonl} files under {@code paths} and returns the table's rows,
   * in group order; says on {@code out} how many lines were no record.
   *
   * @throws IOException if the job fails
   */
  public static List<String> rows(Configuration conf, List<String> paths, PrintStream out)
      throws IOException, InterruptedException {
    Job job = Job.getInstance(conf, "Curtail stats analysis");
    job.setJarByClass(StatsJob.class);
    job.setInputFormatClass(TextInputFormat.class);
    for (String p : paths) {
      Path path = new Path(p);
      FileSystem fs = path.getFileSystem(conf);
      for (FileStatus f : CohortTable.list(fs, path)) {
        FileInputFormat.addInputPath(job, f.getPath());
      }
    }
    job.setMapperClass(GroupMapper.class);
    job.setReducerClass(RowReducer.class);
    job.setNumReduceTasks(1); // one sorted file of rows; a reduce holds one group at a time
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(Text.class);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    Path output = new Path(FileSystem.get(conf).getWorkingDirectory(),
        "curtail-stats-analysis-" + System.currentTimeMillis());
    FileOutputFormat.setOutputPath(job, output);
    FileSystem outFs = output.getFileSystem(conf);
    try {
      try {
        if (!job.waitForCompletion(false)) {
          throw new IOException("the statistics job failed: " + job.getStatus().getFailureInfo());
        }
      } catch (ClassNotFoundException e) {
        throw new IOException(e);
      }
      long skipped = job.getCounters().findCounter(Counter.NOT_RECORDS).getValue();
      if (skipped > 0) {
        out.println(skipped + " lines were not statistics records, skipped");
      }
      List<String> rows = new ArrayList<>();
      for (FileStatus part : outFs.listStatus(output)) {
        if (part.getPath().getName().startsWith("part-")) {
          try (BufferedReader in = new BufferedReader(new InputStreamReader(
              outFs.open(part.getPath()), StandardCharsets.UTF_8))) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
              rows.add(l);
            }
          }
        }
      }
      return rows;
    } finally {
      outFs.delete(output, true);
    }
  }
}
