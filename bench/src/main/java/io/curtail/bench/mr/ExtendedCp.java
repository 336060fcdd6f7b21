package io.curtail.bench.mr;

import io.curtail.bench.Mode;
import io.curtail.bench.Op;
import io.curtail.tools.stats.Latencies;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.NLineInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;

/**
 * The benchmark's workload as a MapReduce job, one map task per client as in DistCp and the
 * paper's ExtendedCP (§6.1): each task writes (or reads) its files whole, the other side being
 * memory, timing each file and verifying every byte; the driver prints the per-file latency
 * percentiles. This is how the benchmark scales past one machine:
 *
 * <pre>
 * hadoop jar bench/target/curtail-bench-job.jar -op write -mode stock -clients 100 -files 4 \
 *     -mib 128 -dir /tmp/extendedcp
 * hadoop jar bench/target/curtail-bench-job.jar -op read  -mode stock -clients 100 -files 4 \
 *     -mib 128 -dir /tmp/extendedcp
 * </pre>
 *
 * A read run reads the files the write run with the same {@code -dir -seed -clients -files -mib}
 * left. Generic options ({@code -D curtail.read.hedging=smart}, {@code -libjars}) apply as usual.
 */
public final class ExtendedCp extends Configured implements Tool {
  static final String OP = "extendedcp.op";
  static final String MODE = "extendedcp.mode";
  static final String FILES = "extendedcp.files";
  static final String BYTES = "extendedcp.bytes";
  static final String DIR = "extendedcp.dir";
  static final String SEED = "extendedcp.seed";
  static final String HEDGE_MS = "extendedcp.hedge.threshold.ms";

  /** Job counters: what every task did, summed. */
  public enum Counter { FILES, BYTES, BYTES_VERIFIED }

  private final PrintStream out;

  public ExtendedCp() {
    this(System.out);
  }

  ExtendedCp(PrintStream out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    System.exit(ToolRunner.run(new Configuration(), new ExtendedCp(), args));
  }

  /** The data file of {@code client}'s {@code file}-th file. */
  static Path dataFile(Path dir, int client, int file) {
    return new Path(dir, "data/c" + client + "-f" + file);
  }

  static long fileSeed(long seed, int client, int file) {
    return seed * 1_000_003L + client * 101L + file;
  }

  @Override
  public int run(String[] args) throws Exception {
    Configuration conf = new Configuration(getConf());
    int clients = 4;
    String op = "write";
    String mode = "stock";
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (i + 1 >= args.length) {
        return usage("missing the value of " + a);
      }
      String v = args[++i];
      switch (a) {
        case "-op": op = v; break;
        case "-mode": mode = v; break;
        case "-clients": clients = Integer.parseInt(v); break;
        case "-files": conf.setInt(FILES, Integer.parseInt(v)); break;
        case "-mib": conf.setLong(BYTES, Long.parseLong(v) << 20); break;
        case "-bytes": conf.setLong(BYTES, Long.parseLong(v)); break;
        case "-dir": conf.set(DIR, v); break;
        case "-seed": conf.setLong(SEED, Long.parseLong(v)); break;
        case "-hedge-threshold-ms": conf.setLong(HEDGE_MS, Long.parseLong(v)); break;
        default: return usage("unknown option " + a);
      }
    }
    Op parsedOp;
    try {
      parsedOp = Op.valueOf(op.toUpperCase(Locale.ROOT));
      Mode.parse(mode);
    } catch (IllegalArgumentException e) {
      return usage(e.getMessage().startsWith("unknown") ? e.getMessage()
          : "-op must be write, read or pread, was " + op);
    }
    if (clients < 1 || conf.get(DIR) == null) {
      return usage("need -clients >= 1 and -dir");
    }
    conf.set(OP, parsedOp.name());
    conf.set(MODE, mode);

    Path dir = new Path(conf.get(DIR));
    FileSystem fs = dir.getFileSystem(conf);
    Path input = new Path(dir, "extendedcp-input-" + op + "-" + mode);
    Path output = new Path(dir, "extendedcp-output-" + op + "-" + mode);
    fs.delete(output, true);
    try (FSDataOutputStream in = fs.create(input, true)) {
      for (int c = 0; c < clients; c++) {
        in.write((c + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    Job job = Job.getInstance(conf, "ExtendedCP " + op + " " + mode + " x" + clients);
    job.setJarByClass(ExtendedCp.class);
    job.setInputFormatClass(NLineInputFormat.class);
    NLineInputFormat.addInputPath(job, input);
    NLineInputFormat.setNumLinesPerSplit(job, 1);
    job.setMapperClass(ClientMapper.class);
    job.setNumReduceTasks(0);
    job.setOutputKeyClass(NullWritable.class);
    job.setOutputValueClass(Text.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    // Tasks time their own files: a speculative duplicate would write the same files twice.
    job.setMapSpeculativeExecution(false);
    if (!job.waitForCompletion(false)) {
      out.println("ExtendedCP: job " + job.getJobID() + " failed");
      return 1;
    }
    Counters counters = job.getCounters();
    long files = counters.findCounter(Counter.FILES).getValue();
    long bytes = counters.findCounter(Counter.BYTES).getValue();
    long verified = counters.findCounter(Counter.BYTES_VERIFIED).getValue();
    Latencies latencies = Latencies.of(readLatencies(fs, output));
    out.printf(Locale.ROOT, "ExtendedCP %s %s: %d files, %d bytes, %d verified%s; per-file latency"
            + " ms p50 %.1f p90 %.1f p99 %.1f max %.1f%n", op, mode, files, bytes, verified,
        verified == bytes ? "" : " (MISMATCH)", latencies.percentileMs(0.5),
        latencies.percentileMs(0.9), latencies.percentileMs(0.99), latencies.percentileMs(1.0));
    fs.delete(input, false);
    return verified == bytes ? 0 : 1;
  }

  private static List<Long> readLatencies(FileSystem fs, Path output) throws IOException {
    List<Long> out = new ArrayList<>();
    for (FileStatus st : fs.listStatus(output, p -> p.getName().startsWith("part-"))) {
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(fs.open(st.getPath()), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          String[] f = line.split("\t");
          out.add(Long.parseLong(f[2]));
        }
      }
    }
    return out;
  }

  private int usage(String problem) {
    out.println("ExtendedCP: " + problem);
    out.println("usage: [generic options] -op write|read|pread -mode stock|stock-hedged|… "
        + "-clients N -files N -mib N -dir PATH [-seed N] [-hedge-threshold-ms N]");
    return 2;
  }

  /** One client: its files, one after another, each timed and verified. */
  public static final class ClientMapper extends Mapper<LongWritable, Text, NullWritable, Text> {
    @Override
    protected void map(LongWritable offset, Text line, Context ctx)
        throws IOException, InterruptedException {
      Configuration conf = new Configuration(ctx.getConfiguration());
      int client = Integer.parseInt(line.toString().trim());
      Op op = Op.valueOf(conf.get(OP));
      Mode mode = Mode.parse(conf.get(MODE)).get(0);
      mode.configure(conf, new Mode.Options(conf.getLong(HEDGE_MS, 100)));
      int files = conf.getInt(FILES, 4);
      long bytes = conf.getLong(BYTES, 16L << 20);
      long seed = conf.getLong(SEED, 1);
      Path dir = new Path(conf.get(DIR));
      Op.Shape shape = new Op.Shape((short) conf.getInt("dfs.replication", 3),
          conf.getLong("dfs.blocksize", 128L << 20));
      try (FileSystem fs = FileSystem.newInstance(dir.toUri(), conf)) {
        for (int f = 0; f < files; f++) {
          Path path = dataFile(dir, client, f);
          long fileSeed = fileSeed(seed, client, f);
          long t0 = System.nanoTime();
          long verified = op.run(fs, path, fileSeed, bytes, shape);
          long latency = System.nanoTime() - t0;
          if (op == Op.WRITE) { // read back what was written, outside the timed part
            verified = Op.READ.run(fs, path, fileSeed, bytes, shape);
          }
          ctx.getCounter(Counter.FILES).increment(1);
          ctx.getCounter(Counter.BYTES).increment(bytes);
          ctx.getCounter(Counter.BYTES_VERIFIED).increment(verified);
          ctx.write(NullWritable.get(), new Text(client + "\t" + f + "\t" + latency + "\t"
              + bytes + "\t" + mode.label() + "\t" + op.name().toLowerCase(Locale.ROOT)));
          ctx.progress();
        }
      }
    }
  }
}
