// tdoku_bench times tdoku's SolveSudoku over a puzzle list, the C++ side of
// scripts/bench-exact.sh. Usage: tdoku_bench LIMIT FILE [MIN_PUZZLES]
// It solves the list (repeated until at least MIN_PUZZLES solves, default
// 20000) with the given limit and prints one line:
//   puzzles=N solves=S cpu_us_per_puzzle=X guesses_per_puzzle=Y
// where CPU time is the process's (CLOCK_PROCESS_CPUTIME_ID) over the
// solving loop only. A puzzle whose count is 0, or above 1 with limit 2,
// is an error: the lists hold unique puzzles.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "tdoku.h"

static double cpu_seconds() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: tdoku_bench LIMIT FILE [MIN_PUZZLES]\n");
        return 2;
    }
    size_t limit = std::strtoul(argv[1], nullptr, 10);
    size_t min_puzzles = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 20000;
    std::ifstream in(argv[2]);
    if (!in) {
        std::fprintf(stderr, "tdoku_bench: cannot open %s\n", argv[2]);
        return 2;
    }
    std::vector<std::string> puzzles;
    std::string line;
    size_t lineno = 0;
    while (std::getline(in, line)) {
        lineno++;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        if (line.size() < 81) {
            std::fprintf(stderr, "%s:%zu: short puzzle line\n", argv[2], lineno);
            return 2;
        }
        std::string p = line.substr(0, 81);
        for (char &ch : p) if (ch == '0') ch = '.';
        puzzles.push_back(p);
    }
    if (puzzles.empty()) {
        std::fprintf(stderr, "tdoku_bench: no puzzles in %s\n", argv[2]);
        return 2;
    }
    size_t reps = (min_puzzles + puzzles.size() - 1) / puzzles.size();
    char solution[82] = {0};
    size_t guesses_total = 0, solves = 0;
    double start = cpu_seconds();
    for (size_t r = 0; r < reps; r++) {
        for (const std::string &p : puzzles) {
            size_t guesses = 0;
            size_t count = SolveSudoku(p.c_str(), limit, 0, solution, &guesses);
            if (count != 1) {
                std::fprintf(stderr, "tdoku_bench: %s: count %zu with limit %zu\n", p.c_str(), count, limit);
                return 1;
            }
            guesses_total += guesses;
            solves++;
        }
    }
    double took = cpu_seconds() - start;
    std::printf("puzzles=%zu solves=%zu cpu_us_per_puzzle=%.3f guesses_per_puzzle=%.3f\n",
                puzzles.size(), solves, took * 1e6 / solves, (double)guesses_total / solves);
    return 0;
}
