# kernels.cmake: what the CUDA back end's generated sources hold (docs/cuda.md, "How a program
# becomes kernels"), counted in the text:
# - graphs: the shallow-water step (halo statements between its kernels) makes each block of
#   stencil calls outside an `if` a stretch of its own, captured at the first run; the damping
#   inside `if (nord == n)` is launched plainly (the run's scalars choose it). The chain: one
#   graph for the whole run, no stretches. Instrumented: plain launches only.
# The chain's counts are of --cuda-fed on (a segment inside a walk) and --cuda-rim nests, off
# by default.
# - phases: the chain's segment waits at 1 barrier a level in the interior variant (courant
#   and the fluxes, one loop; then diffuse and update, one loop, reading the fluxes at
#   offsets) and in `all` (edges_x and edges_y, which overwrite the fluxes at their points,
#   in the fluxes' loop, run only by tiles that hold points of their regions: the loop a
#   second time without them, for the others; none in the interior variant); inside the
#   walk, 1 more (before the walk's step at the level), none before the next level's nests:
#   they write the other of each shared tile's two (fx, fy, qn; `(k & 1)`), FPO_TILES_SWAP_
#   says so.
# - empty nests: the unfused chain launches 11 kernels a run in the interior variant, where
#   edges_x and edges_y have no statement, and 13 in `all`.
# - walks: the chain's tridiagonal solve (FORWARD, then BACKWARD with the clip inside) is one
#   kernel; by default (--cuda-fed off) the chain is two launches (its segment, the walks);
#   with --cuda-fed on the walk kernel runs the segment before it level by level inside its
#   FORWARD walk: one launch, no walk kernel of its own, qn in a shared tile (with fx, fy); walks.fpo's `sweeps` (up, down, up) one kernel and `across` (its
#   computations not one column group) two.
# - prefetch: segments of several levels a block ask L2 for the next level's inputs; with
#   --cuda-prefetch, every segment for its first level's, and walks for levels past their registers.
# - the walk's step in a fed kernel's last phase (fpo_own), where a level keeps a barrier.
# - slack: the transport step's 3 segments let the last column of their tiles take up to 8
#   columns more (fpo_tiles_slack_, the kernels' fpo_ti1); the chain's fed kernel, whose
#   threads are its tile's columns, does not.
file(REMOVE_RECURSE "${DIR}")
function(gen out)
  execute_process(COMMAND "${GEN}" --backend c --backend cuda -o "${DIR}/${out}" ${ARGN}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fpo-gen ${ARGN}: exit ${rc}\n${err}")
  endif()
endfunction()
# A variant's .cu as if it held each kernel it shares with a variant before it: the declaration
# (`extern __global__ void NAME(...);` after a comment naming the file that compiles it)
# replaced by that file's definition of NAME.
function(read_cu path var)
  file(READ "${path}" text)
  get_filename_component(dir "${path}" DIRECTORY)
  set(mark "/* (the same text as a kernel of ")
  string(FIND "${text}" "${mark}" at)
  while(at GREATER -1)
    string(SUBSTRING "${text}" ${at} -1 rest)
    if(NOT rest MATCHES "^[^\n]*of ([^ ,]+), compiled there[)] [*]/\nextern __global__ void ([A-Za-z0-9_]+)[(][^;]*;\n")
      message(FATAL_ERROR "${path}: a shared kernel's declaration not as expected")
    endif()
    set(file "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    string(LENGTH "${CMAKE_MATCH_0}" declared)
    if(NOT DEFINED "read_${file}")   # (each file the variant names, read once)
      file(READ "${dir}/${file}" "read_${file}")
    endif()
    set(def "${read_${file}}")
    string(FIND "${def}" " ${name}(" d)
    if(d LESS 0)
      message(FATAL_ERROR "${path}: ${name} is not in ${file}")
    endif()
    string(SUBSTRING "${def}" 0 ${d} head)
    string(FIND "${head}" "\n" line REVERSE)
    math(EXPR line "${line} + 1")
    string(SUBSTRING "${def}" ${line} -1 def)
    string(FIND "${def}" "\n}\n" end)
    math(EXPR end "${end} + 3")
    string(SUBSTRING "${def}" 0 ${end} def)
    string(SUBSTRING "${text}" 0 ${at} before)
    math(EXPR after "${at} + ${declared}")
    string(SUBSTRING "${text}" ${after} -1 after)
    set(text "${before}${def}${after}")
    string(FIND "${text}" "${mark}" at)
  endwhile()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
# A kernel's name, less its place in the variant that made it (seg1, walk1, k_STENCIL_..):
# PROGRAM__CLASS_.
set(K "[A-Za-z0-9_]+__[a-z]+_")
function(count text what var)
  string(REGEX MATCHALL "${what}" m "${text}")
  list(LENGTH m n)
  set(${var} ${n} PARENT_SCOPE)
endfunction()

gen(sw --program sw_step "${SRC}/example_model/sw/step.fpo")
# shared kernels: of sw_step's 205 kernels in its 10 variants, 129 distinct texts, each compiled
# once (defined in the first variant that makes it, `all` first), the other 76 declared where
# they are launched; each variant defines or declares exactly the kernels it launches (no
# kernel defined and left unlaunched, no declaration of one it does not launch)
set(defined 0)
set(declared 0)
foreach(cls all interior n s e w ne nw se sw)
  file(READ "${DIR}/sw/sw_step.${cls}.cu" text)
  count("${text}" "\n__global__ void " d)
  count("${text}" "\nextern __global__ void " x)
  math(EXPR defined "${defined} + ${d}")
  math(EXPR declared "${declared} + ${x}")
  string(REGEX MATCHALL "FPO_LAUNCH[_A-Z]*[(]fpo__cu, \"[^\"]*\", [A-Za-z0-9_]+," launches "${text}")
  set(names "")
  foreach(l IN LISTS launches)
    string(REGEX REPLACE ".*\", ([A-Za-z0-9_]+),$" "\\1" l "${l}")
    list(APPEND names "${l}")
  endforeach()
  list(REMOVE_DUPLICATES names)
  list(LENGTH names launched)
  math(EXPR made "${d} + ${x}")
  if(NOT launched EQUAL made)
    message(FATAL_ERROR "sw_step.${cls}.cu: ${d} kernels defined and ${x} declared, "
                        "${launched} launched")
  endif()
  if(cls STREQUAL "all" AND NOT x EQUAL 0)
    message(FATAL_ERROR "sw_step.all.cu, the first variant, declares ${x} kernels; expected none")
  endif()
endforeach()
if(NOT defined EQUAL 129 OR NOT declared EQUAL 76)
  message(FATAL_ERROR "sw_step: ${defined} kernels defined, ${declared} declared; expected 129 "
                      "and 76")
endif()
read_cu("${DIR}/sw/sw_step.interior.cu" sw)
count("${sw}" "fpo_cuda_stretch\\(fpo__cu, [0-9]+\\)" begins)
count("${sw}" "fpo_cuda_stretch_end\\(fpo__cu, [0-9]+\\)" ends)
count("${sw}" "fpo_cuda_stretches\\(fpo__cu, fpo_key, fpo_n\\)" keyed)
if(NOT begins EQUAL 8 OR NOT ends EQUAL 8 OR NOT keyed EQUAL 1)
  message(FATAL_ERROR "sw_step: ${begins} stretches begun, ${ends} ended, ${keyed} keyed; "
                      "expected 8, 8, 1")
endif()
string(FIND "${sw}" "if (nord == 1) {" damp)
if(damp LESS 0)
  message(FATAL_ERROR "sw_step: no `if (nord == 1)` in the run")
endif()
string(SUBSTRING "${sw}" ${damp} -1 rest)
string(FIND "${rest}" "fpo_cuda_stretch(" next)   # the first stretch after the damping
string(SUBSTRING "${rest}" 0 ${next} damping)
string(FIND "${damping}" "if (nord == 3) {" last)
count("${damping}" "FPO_LAUNCH" launches)
if(next LESS 0 OR last LESS 0 OR launches LESS 3)
  message(FATAL_ERROR "sw_step: the first stretch after `if (nord == 1)` at ${next}, "
                      "`if (nord == 3)` before it at ${last}, ${launches} plain launches in "
                      "between; expected all three damping `if`s (a launch each at least) before it")
endif()

gen(chain --cuda-fed on --cuda-rim nests "${SRC}/tests/bench/chain.fpo")
read_cu("${DIR}/chain/chain_step.interior.cu" chain)
count("${chain}" "fpo_cuda_stretch" s)
count("${chain}" "fpo_cuda_replay\\(" r)
if(NOT s EQUAL 0 OR NOT r EQUAL 1)
  message(FATAL_ERROR "chain: ${s} stretch calls and ${r} replays; expected 0 and 1")
endif()
count("${chain}" "__syncthreads\\(\\);" interior)
read_cu("${DIR}/chain/chain_step.all.cu" chain_all)
count("${chain_all}" "__syncthreads\\(\\);" all)
count("${chain}" "FPO_TILES_SWAP_\\(\\);" swaps)
count("${chain}" "fpo_sh[0-9]+ \\+ \\(k & 1\\)" parity)
count("${chain}" "the tile holds points of edge regions" rim)
count("${chain_all}" "the tile holds points of edge regions" rim_all)
if(NOT interior EQUAL 2 OR NOT all EQUAL 2 OR NOT swaps EQUAL 1 OR NOT parity EQUAL 3 OR
   NOT rim EQUAL 0 OR NOT rim_all EQUAL 1)
  message(FATAL_ERROR "chain: ${interior} barriers in the interior variant, ${all} in all, "
                      "${swaps} tile swaps, ${parity} tiles of a level's parity, ${rim} and "
                      "${rim_all} loops of edge regions; expected 2, 2, 1, 3, 0 and 1")
endif()
# merged loops: the values courant and diffuse hand over at the point live in registers
count("${chain}" "double fpo_r[0-9]+_(cx|cy|qd) = 0;" regs)
count("${chain}" "__shared__ double" tiles)
if(NOT regs EQUAL 4 OR NOT tiles EQUAL 3)
  message(FATAL_ERROR "chain: ${regs} register declarations of cx, cy, qd, ${tiles} shared "
                      "tiles; expected 4 (cx, cy in the fluxes' loop, qd in both forms of "
                      "update's) and 3 (fx, fy, qn)")
endif()

count("${chain}" "FPO_LAUNCH(_TILES)?\\(" launches)
count("${chain}" "__global__ void ${K}walk" walks)
count("${chain}" "__global__ void FPO_LAUNCH_BOUNDS\\(256, 2\\) ${K}fed" fed)
if(NOT launches EQUAL 1 OR NOT walks EQUAL 0 OR NOT fed EQUAL 1)
  message(FATAL_ERROR "chain: ${launches} launches, ${walks} walk kernels, ${fed} segments "
                      "inside a walk (128 registers at most: two blocks a multiprocessor); "
                      "expected 1, 0 and 1")
endif()
# by default (--cuda-fed off) the segment and the walks are two kernels (as before fed kernels)
gen(chain_off "${SRC}/tests/bench/chain.fpo")
# the walks read d, then cp and dp, 8 levels ahead; 16 with --cuda-ahead 16; none with 0
gen(chain_a16 --cuda-ahead 16 "${SRC}/tests/bench/chain.fpo")
gen(chain_a0 --cuda-ahead 0 "${SRC}/tests/bench/chain.fpo")
read_cu("${DIR}/chain_a16/chain_step.interior.cu" chain_a16)
read_cu("${DIR}/chain_a0/chain_step.interior.cu" chain_a0)
read_cu("${DIR}/chain_off/chain_step.interior.cu" chain_a8)
count("${chain_a8}" "read ahead: [a-z, ]+ \\(8 levels\\)" ahead8)
count("${chain_a16}" "read ahead: [a-z, ]+ \\(16 levels\\)" ahead16)
count("${chain_a16}" "fpo_q_(d|cp|dp)_15 = " regs16)
count("${chain_a0}" "read ahead|fpo_q_(d|cp|dp)_" ahead0)
# --cuda-ring on: the FORWARD walk's middle interval and the BACKWARD walk's long one take 8
# levels a turn (the one-level intervals none), each level loading its own register
gen(chain_ring --cuda-ring on "${SRC}/tests/bench/chain.fpo")
read_cu("${DIR}/chain_ring/chain_step.interior.cu" chain_ring)
count("${chain_ring}" "8 levels a turn of the read-ahead registers" turns)
count("${chain_ring}" "fpo_q_cp_7 = k - 8 >= fpo_ka[0-9]+ [?]" ring_cp7)
if(NOT turns EQUAL 2 OR NOT ring_cp7 EQUAL 3)
  message(FATAL_ERROR "chain --cuda-ring on: ${turns} ring loops, cp's register 7 loaded 8 "
                      "levels on ${ring_cp7} times; expected 2 and 3 (in the ring, and moved "
                      "down in the loops of the levels after it and of the one-level interval)")
endif()
# --cuda-walk-rows 8: the walk kernel's blocks are 32 x 8 columns (32 x 2 by default); the
# segment's tiles do not change; --cuda-walk-blocks 18: its registers held to 18 blocks of
# 32 x 2. Unfused, the five column kernels of the solve's intervals the same.
gen(chain_w8 --cuda-walk-rows 8 "${SRC}/tests/bench/chain.fpo")
gen(chain_w2 --cuda-walk-blocks 18 "${SRC}/tests/bench/chain.fpo")
gen(chain_w2u --mode unfused --cuda-walk-blocks 18 "${SRC}/tests/bench/chain.fpo")
read_cu("${DIR}/chain_w8/chain_step.interior.cu" chain_w8)
read_cu("${DIR}/chain_w2u/chain_step.interior.cu" chain_w2u)
count("${chain_w2u}" "${K}k_vsolve_[0-9_]+, [(]nx[)] - [(]0[)], [(]ny[)] - [(]0[)], 1, 32, 2," w2u)
count("${chain_w2u}" "FPO_LAUNCH_BOUNDS[(]64, 18[)] ${K}k_vsolve" w2ubounds)
count("${chain_w2u}" ", 32, 8, " w2u8)   # (the PARALLEL nests' kernels keep 32 x 8)
if(NOT w2u EQUAL 5 OR NOT w2ubounds EQUAL 5 OR w2u8 LESS 5)
  message(FATAL_ERROR "chain unfused: ${w2u} column kernels launched in blocks of 32 x 2, "
                      "${w2ubounds} held to 18 blocks, ${w2u8} kernels in "
                      "blocks of 32 x 8; expected 5, 5, 5 or more")
endif()
read_cu("${DIR}/chain_w2/chain_step.interior.cu" chain_w2)
count("${chain_w8}" "${K}walk1, [(]nx[)] - [(]0[)], [(]ny[)] - [(]0[)], 1, 32, 8," walk8)
count("${chain_w2}" "${K}walk1, [(]nx[)] - [(]0[)], [(]ny[)] - [(]0[)], 1, 32, 2," walk2)
count("${chain_w2}" "fpo_tiles_[(]fpo_j0, fpo_j1, 16[)]" w2tiles)
count("${chain_w2}" "FPO_LAUNCH_BOUNDS[(]64, 18[)] ${K}walk1[(]" w2bounds)
count("${chain_a8}" "FPO_LAUNCH_BOUNDS[(][0-9, ]+[)] ${K}walk" w8bounds)
if(NOT walk8 EQUAL 1 OR NOT walk2 EQUAL 1 OR NOT w2tiles EQUAL 1 OR NOT w2bounds EQUAL 1
   OR NOT w8bounds EQUAL 0)
  message(FATAL_ERROR "chain: the walk kernel launched in blocks of 32 x 8 with --cuda-walk-rows 8 ${walk8} times, of "
                      "32 x 2 by default ${walk2}, its segment's tiles of 16 rows "
                      "${w2tiles}; held to 18 blocks of 64 threads ${w2bounds} times, to any "
                      "by default ${w8bounds}; expected 1, 1, 1, 1, 0")
endif()
# --cuda-chunks 3: the segment's tile rows in up to 3 chunks, each chunk's walks forked to the
# program's second stream (once), joined after the loop (once); none by default, and no second
# stream made at open (the first variant's table: 2 streams, 1 by default). By default too, no
# loop split at edge regions (--cuda-rim off).
gen(chain_c3 --cuda-chunks 3 "${SRC}/tests/bench/chain.fpo")
read_cu("${DIR}/chain_c3/chain_step.interior.cu" chain_c3)
read_cu("${DIR}/chain_c3/chain_step.all.cu" chain_c3_all)
read_cu("${DIR}/chain_off/chain_step.all.cu" chain_def_all)
count("${chain_c3_all}" "chain_step__cuda_streams_ = 2;" streams2)
count("${chain_def_all}" "chain_step__cuda_streams_ = 1;" streams1)
count("${chain_def_all}" "the tile holds points of edge regions" rim_def)
if(NOT streams2 EQUAL 1 OR NOT streams1 EQUAL 1 OR NOT rim_def EQUAL 0)
  message(FATAL_ERROR "chain: a table of 2 streams with --cuda-chunks 3 ${streams2} times, of 1 "
                      "by default ${streams1}; ${rim_def} loops split at edge regions by "
                      "default; expected 1, 1, 0")
endif()
count("${chain_c3}" "fpo_cuda_fork[(]fpo__cu[)];" forks)
count("${chain_c3}" "fpo_cuda_join[(]fpo__cu[)];" joins)
count("${chain_c3}" "fpo_nr < 3 [?]" nchunks)
count("${chain_a8}" "fpo_cuda_fork|fpo_cuda_join" forks0)
count("${chain_c3}" "FPO_LAUNCH[(]fpo__cu, [^;]*${K}walk1" walklaunch)
if(NOT forks EQUAL 1 OR NOT joins EQUAL 1 OR NOT nchunks EQUAL 1 OR NOT forks0 EQUAL 0
   OR NOT walklaunch EQUAL 2)
  message(FATAL_ERROR "chain --cuda-chunks 3: ${forks} forks, ${joins} joins, ${nchunks} "
                      "chunk counts, ${walklaunch} walk launches (in the chunks' loop, and over "
                      "all columns where no tile is); ${forks0} forks or joins by default; "
                      "expected 1, 1, 1, 2, 0")
endif()
# chunks.fpo: a walk that reads its segment's value at its own column is chunked, one that
# reads it at the next column (which the next chunk's tiles may compute) is not
gen(chunks_own --cuda-chunks 3 --program own "${SRC}/tests/cuda/chunks.fpo")
gen(chunks_beside --cuda-chunks 3 --program beside "${SRC}/tests/cuda/chunks.fpo")
read_cu("${DIR}/chunks_own/own.all.cu" chunks_own)
read_cu("${DIR}/chunks_beside/beside.all.cu" chunks_beside)
count("${chunks_own}" "fpo_cuda_fork[(]fpo__cu[)];" own_forks)
count("${chunks_beside}" "fpo_cuda_fork[(]fpo__cu[)];" beside_forks)
count("${chunks_beside}" "__global__ void ${K}(seg|walk)1[(]" beside_kernels)
if(NOT own_forks EQUAL 1 OR NOT beside_forks EQUAL 0 OR NOT beside_kernels EQUAL 2)
  message(FATAL_ERROR "chunks.fpo --cuda-chunks 3: ${own_forks} forks where the walk reads its "
                      "own column, ${beside_forks} where it reads the next (${beside_kernels} "
                      "segment and walk kernels there); expected 1, 0, 2")
endif()
if(NOT ahead8 EQUAL 2 OR NOT ahead16 EQUAL 2 OR regs16 LESS 3 OR NOT ahead0 EQUAL 0)
  message(FATAL_ERROR "chain: walks reading ahead 8 levels ${ahead8}, 16 with --cuda-ahead 16 "
                      "${ahead16} (the 16th registers set ${regs16} times), ${ahead0} mentions "
                      "with 0; expected 2, 2 (3 or more), 0")
endif()
read_cu("${DIR}/chain_off/chain_step.interior.cu" chain_off)
count("${chain_off}" "FPO_LAUNCH(_TILES)?\\(" launches)
count("${chain_off}" "__global__ void ${K}walk" walks)
count("${chain_off}" "${K}fed[0-9]" fed)
if(NOT launches EQUAL 2 OR NOT walks EQUAL 1 OR NOT fed EQUAL 0)
  message(FATAL_ERROR "chain (--cuda-fed off): ${launches} launches, ${walks} walk kernels, "
                      "${fed} mentions of a fed kernel; expected 2, 1 and 0")
endif()
# the walk's step in the segment's last phase, no barrier before it, where the item handing
# its values over gives each thread its own column's points (fpo_own); a barrier before it
# elsewhere, and always where a level would keep no other barrier (one phase)
count("${chain}" "fpo_own = fpo_ni == 64 && fpo_c == fpo_tj0;" own_set)
count("${chain}" "if \\(fpo_own\\)" own_walk)
count("${chain}" "if \\(!fpo_own\\) {[^\n]*\n *__syncthreads\\(\\);" own_else)
gen(fed --cuda-fed on --layouts 1x1 "${SRC}/tests/programs/fed.fpo")
read_cu("${DIR}/fed/fed.all.cu" fed_cu)
count("${fed_cu}" "if \\(fpo_own\\)" fed_own)
gen(fed_one --cuda-fed on --layouts 1x1 "${SRC}/tests/cuda/fed_one.fpo")
read_cu("${DIR}/fed_one/fed_one.all.cu" one_cu)
count("${one_cu}" "__global__ void FPO_LAUNCH_BOUNDS\\(256, 2\\) ${K}fed" one_fed)
count("${one_cu}" "fpo_own" one_own)
count("${one_cu}" "__syncthreads\\(\\);" one_bar)
if(NOT own_set EQUAL 1 OR NOT own_walk EQUAL 1 OR NOT own_else EQUAL 1 OR NOT fed_own EQUAL 2 OR
   NOT one_fed EQUAL 1 OR NOT one_own EQUAL 0 OR NOT one_bar EQUAL 1)
  message(FATAL_ERROR "walk in the last phase: the chain sets fpo_own ${own_set} times, walks "
                      "there ${own_walk}, after a barrier else ${own_else}; fed.fpo ${fed_own} "
                      "walks there; fed_one.fpo ${one_fed} fed kernels, ${one_own} mentions of "
                      "fpo_own, ${one_bar} barriers; expected 1, 1, 1; 2; 1, 0, 1")
endif()

gen(walks --layouts 1x1 "${SRC}/tests/programs/walks.fpo")
read_cu("${DIR}/walks/walks.all.cu" walks_cu)
count("${walks_cu}" "FPO_LAUNCH\\(fpo__cu, \"stencil sweeps" sweeps)
count("${walks_cu}" "FPO_LAUNCH\\(fpo__cu, \"stencil across" across)
if(NOT sweeps EQUAL 1 OR NOT across EQUAL 2)
  message(FATAL_ERROR "walks.fpo: sweeps ${sweeps} kernels, across ${across}; expected 1 and 2")
endif()

# prefetch: a segment whose block computes 4 levels in turn asks L2 for the next level's
# inputs (the transport step's three segments: qy, cry, xfx, yfx; q, crx, q_i; q, cry, xfx,
# yfx, ra_x, fx, fy2, fx2); one level a block, none.
gen(tp4 --cuda-levels 4 --program tp_step "${SRC}/example_model/model/fvtp.fpo")
gen(tp1 --program tp_step "${SRC}/example_model/model/fvtp.fpo")
read_cu("${DIR}/tp4/tp_step.interior.cu" tp4)
read_cu("${DIR}/tp1/tp_step.interior.cu" tp1)
count("${tp4}" "FPO_PREFETCH_L2_\\(fpo_o[0-9]+ \\+ \\(k \\+ 1\\)" ahead4)
count("${tp1}" "FPO_PREFETCH_L2_" ahead1)
if(NOT ahead4 EQUAL 15 OR NOT ahead1 EQUAL 0)
  message(FATAL_ERROR "tp_step: ${ahead4} arrays asked of L2 a level ahead with --cuda-levels 4, "
                      "${ahead1} with one level a block; expected 15 and 0")
endif()
# --cuda-prefetch 16: a segment asks L2 for its first level's inputs at its top (the same 15
# arrays; of 4 levels a block, the first as well as each next); the chain's walks ask for d,
# then cp and dp, 16 levels past their 8 read-ahead registers: 16 levels at each interval's
# start (3 FORWARD, 2 BACKWARD) and one as each level is loaded, in a ring's turn too; its
# segment for q, u, v and delp. None by default.
gen(tp1p --cuda-prefetch 16 --program tp_step "${SRC}/example_model/model/fvtp.fpo")
gen(tp4p --cuda-prefetch 16 --cuda-levels 4 --program tp_step "${SRC}/example_model/model/fvtp.fpo")
gen(chain_pf --cuda-prefetch 16 --cuda-ring off "${SRC}/tests/bench/chain.fpo")
gen(chain_ringpf --cuda-prefetch 16 --cuda-ring on "${SRC}/tests/bench/chain.fpo")
read_cu("${DIR}/tp1p/tp_step.interior.cu" tp1p)
read_cu("${DIR}/tp4p/tp_step.interior.cu" tp4p)
read_cu("${DIR}/chain_pf/chain_step.interior.cu" chain_pf)
read_cu("${DIR}/chain_ringpf/chain_step.interior.cu" chain_ringpf)
count("${tp1p}" "FPO_PREFETCH_L2_\\(fpo_g[0-9]+ \\+ fpo_pf[0-9]+\\)" top1)
count("${tp4p}" "FPO_PREFETCH_L2_\\(fpo_o[0-9]+ \\+ \\(fpo_k0\\)" top4)
count("${tp4p}" "FPO_PREFETCH_L2_\\(fpo_o[0-9]+ \\+ \\(k \\+ 1\\)" next4)
count("${chain_pf}" "int fpo_p = 8" fills)
count("${chain_pf}" "j \\* fpo_sj_(d|cp|dp) \\+ \\(k [-+] 24\\)" levels)   # (no [: a list's)
count("${chain_ringpf}" "j \\* fpo_sj_(cp|dp) \\+ \\(k - 24\\)" ring_levels)
count("${chain_pf}" "FPO_PREFETCH_L2_\\(fpo_g[0-9]+ \\+ fpo_pf[0-9]+\\)" chain_top)
count("${chain_off}" "FPO_PREFETCH_L2_" none)
if(NOT top1 EQUAL 15 OR NOT top4 EQUAL 15 OR NOT next4 EQUAL 15 OR NOT fills EQUAL 7
   OR NOT levels EQUAL 9 OR NOT ring_levels EQUAL 20 OR NOT chain_top EQUAL 4 OR NOT none EQUAL 0)
  message(FATAL_ERROR "--cuda-prefetch 16: tp_step's segments ask L2 for ${top1} arrays at their "
                      "top (${top4} and ${next4} a level ahead at 4 levels a block); the chain's "
                      "walks ${fills} times 16 levels at an interval's start, ${levels} asks a "
                      "level (${ring_levels} of cp and dp in a ring), its segment ${chain_top} "
                      "arrays; by default ${none} asks; expected 15, 15, 15, 7, 9, 20, 4, 0")
endif()
# --cuda-ldg on: a segment kernel reads the arrays none of its nests writes through the
# read-only data cache: the transport step's ra_x where its third segment reads it, not where
# its first writes it; none in a fed kernel (its walks may write what its nests read), none by
# default
gen(tp_ldg --cuda-ldg on --program tp_step "${SRC}/example_model/model/fvtp.fpo")
gen(chain_fed_ldg --cuda-ldg on --cuda-fed on "${SRC}/tests/bench/chain.fpo")
read_cu("${DIR}/tp_ldg/tp_step.interior.cu" tp_ldg)
read_cu("${DIR}/chain_fed_ldg/chain_step.interior.cu" chain_fed_ldg)
count("${tp_ldg}" "FPO_READ_ONLY_\\((const )?double, ra_x, fpo_g" ro_ra_x)
count("${tp_ldg}" "double \\*restrict const ra_x = fpo_g" rw_ra_x)
count("${tp_ldg}" "FPO_READ_ONLY_\\(" ro_tp)
count("${chain_fed_ldg}${tp1}" "FPO_READ_ONLY_" ro_none)
if(NOT ro_ra_x EQUAL 1 OR NOT rw_ra_x EQUAL 1 OR ro_tp LESS 30 OR NOT ro_none EQUAL 0)
  message(FATAL_ERROR "--cuda-ldg on: tp_step's ra_x read-only ${ro_ra_x} times, a plain view "
                      "${rw_ra_x} times (${ro_tp} read-only views in all); ${ro_none} in the "
                      "chain's fed kernel and by default; expected 1, 1 (30 or more), 0")
endif()
# --cuda-blocks 4: the segment kernels' registers held to four blocks of 256 threads a
# multiprocessor; none by default (256 threads)
gen(tpb4 --cuda-blocks 4 --program tp_step "${SRC}/example_model/model/fvtp.fpo")
read_cu("${DIR}/tpb4/tp_step.interior.cu" tpb4)
count("${tpb4}" "__global__ void FPO_LAUNCH_BOUNDS\\(256, 4\\) ${K}seg" bounds4)
count("${tp1}" "FPO_LAUNCH_BOUNDS\\([0-9]+, [0-9]+\\) ${K}seg" bounds1)
if(NOT bounds4 EQUAL 3 OR NOT bounds1 EQUAL 0)
  message(FATAL_ERROR "tp_step: ${bounds4} segment kernels bounded to 4 blocks with "
                      "--cuda-blocks 4, ${bounds1} bounded by default; expected 3 and 0")
endif()
count("${tp1}" "fpo_tiles_slack_\\(fpo_i0, fpo_i1, 64, 8\\)" slack_tp)
count("${tp1}" "fpo_ti1 = fpo_ti0 \\+ 64 \\+ \\(\\(int\\)blockIdx.x \\+ 1 == \\(int\\)gridDim.x \\? fpo_sx" slack_k)
count("${chain}" "fpo_tiles_slack_|fpo_ti1" slack_chain)
if(NOT slack_tp EQUAL 3 OR NOT slack_k EQUAL 3 OR NOT slack_chain EQUAL 0)
  message(FATAL_ERROR "tp_step: ${slack_tp} segment launches and ${slack_k} kernels with a wider "
                      "last column of tiles, expected 3 and 3; the chain's fed kernel: "
                      "${slack_chain} mentions, expected none")
endif()

gen(checked --instrument nan --program sw_step "${SRC}/example_model/sw/step.fpo")
read_cu("${DIR}/checked/sw_step.interior.cu" checked)
count("${checked}" "fpo_cuda_stretch" s)
if(NOT s EQUAL 0)
  message(FATAL_ERROR "sw_step --instrument nan: ${s} stretch calls; expected none")
endif()

gen(ref --mode unfused "${SRC}/tests/bench/chain_ref.fpo")
read_cu("${DIR}/ref/chain_ref.interior.cu" ref)
read_cu("${DIR}/ref/chain_ref.all.cu" ref_all)
count("${ref}" "FPO_LAUNCH\\(" interior)
count("${ref_all}" "FPO_LAUNCH\\(" all)
count("${ref}" "nothing in this variant" dropped)
if(NOT interior EQUAL 11 OR NOT all EQUAL 13 OR NOT dropped EQUAL 2)
  message(FATAL_ERROR "chain unfused: ${interior} launches in the interior variant (${dropped} "
                      "nests dropped), ${all} in all; expected 11 (2), 13")
endif()
message(STATUS "kernels: sw_step 8 graphs, its damping plain; the chain one graph, two "
               "kernels by default; with --cuda-fed on 2 barriers in both variants (the edges in "
               "the fluxes' loop), two of each shared tile, cx, cy and qd in registers, one "
               "kernel with its segment inside its walk; unfused 11 and 13 launches; tp_step's "
               "segments of 4 "
               "levels ask L2 for 15 arrays a level ahead, its 3 segments bounded to 4 blocks with "
               "--cuda-blocks 4, the chain's walks reading 8 or 16 levels ahead or none, in a ring of "
               "registers with --cuda-ring on, L2 asked ahead with --cuda-prefetch, __ldg with --cuda-ldg on, their last column of tiles up to 8 "
               "wider; the chain's and fed.fpo's walks in the last "
               "phase, fed_one.fpo's after a barrier")
