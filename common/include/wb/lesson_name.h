/// @file lesson_name.h
/// @brief The lesson a program belongs to, as its build names it: no driver types its own name
/// or number, so a lesson copied or renumbered prints the right one.
///
/// The build gives every program of a lesson WORKBOOK_LESSON, the lesson's folder name
/// (workbook_lesson in common/cmake/Workbook.cmake), e.g. "03-tiled-matmul".
#pragma once

#include <string>

#ifndef WORKBOOK_LESSON
#error "WORKBOOK_LESSON is not defined: include wb/lesson_name.h only in a lesson's programs"
#endif

namespace wb {

/// The lesson's folder name, e.g. "03-tiled-matmul".
inline constexpr const char* kLessonName = WORKBOOK_LESSON;

/// "Lesson 03": how the programs head what they print, from the folder's number.
inline const char* lesson_heading() {
    static const std::string heading = "Lesson " + std::string(kLessonName).substr(0, 2);
    return heading.c_str();
}

/// The program's name: the lesson's, and for a lesson's further program its own after a dash
/// ("02-naive-matmul-coalescing": WORKBOOK_PROGRAM, workbook_lesson's PROGRAM).
inline const char* program_name() {
#ifdef WORKBOOK_PROGRAM
    static const std::string name = std::string(kLessonName) + "-" + WORKBOOK_PROGRAM;
    return name.c_str();
#else
    return kLessonName;
#endif
}

}  // namespace wb
